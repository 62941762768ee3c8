import AutoIntents
import CLinux
import Foundation

/// Reading `.name` from values, by the access the checker resolved.
package enum Properties {
    /// `grants`: a file's properties read from the file system (`size`, `modified`, `created`, `kind`, `exists`)
    /// need the run's read grant for the file; its name, path, extension and parent don't.
    static func read(_ access: PropertyAccess, of value: Value, grants: Grants) throws(EvaluationError) -> Value {
        if value.isNull { return .null }
        switch access {
        case .entity(let type, let index):
            guard case .entity(let entity) = value, entity.type === type else {
                return try dynamic(type.properties[index].name, of: value, grants: grants)
            }
            return entity.property(index)
        case .datePart(let part):
            guard case .date(let date) = value else { return try dynamic(part.rawValue, of: value, grants: grants) }
            return datePart(part, of: date)
        case .file(let property):
            guard case .file(let file) = value else { return try dynamic(property.rawValue, of: value, grants: grants) }
            try checkGranted(property, of: file, grants)
            return fileProperty(property, of: file)
        case .dynamic(let name):
            return try dynamic(name, of: value, grants: grants)
        case .each(let inner):
            guard case .list(let items) = value else { return try read(inner, of: value, grants: grants) }
            var results: [Value] = []
            results.reserveCapacity(items.count)
            for item in items { results.append(try read(inner, of: item, grants: grants)) }
            return .list(results)
        }
    }

    /// By name, for values whose type was not known before the run.
    static func dynamic(_ name: String, of value: Value, grants: Grants) throws(EvaluationError) -> Value {
        switch value {
        case .null:
            return .null
        case .record(let record):
            if let field = record[name] { return field }
            throw EvaluationError("the record has no field '\(name)'; its fields: \(record.keys.joined(separator: ", "))")
        case .entity(let entity):
            if let index = entity.type.propertyIndex[name.lowercased()] { return entity.property(index) }
            if name == "id" { return .text(entity.id) }
            throw EvaluationError("\(entity.type.singular) has no property '\(name)'")
        case .date(let date):
            if let part = DatePart(rawValue: name) { return datePart(part, of: date) }
        case .file(let file):
            if let property = FileProperty(rawValue: name) {
                try checkGranted(property, of: file, grants)
                return fileProperty(property, of: file)
            }
        case .list:
            return try read(.each(.dynamic(name)), of: value, grants: grants)
        case .period(let period):
            // All of it in months (`(1 year 2 months).months` is 14), or in years.
            if name == "months" { return .int(period.months) }
            if name == "years" { return .decimal(try DecimalArithmetic.divide(Decimal(period.months), 12)) }
        case .duration(let duration):
            if let unit = Units.durationProperty(named: name) { return .decimal(try DurationArithmetic.length(duration, in: unit)) }
        default:
            break
        }
        throw EvaluationError("\(value.type) has no property '\(name)'")
    }

    static func datePart(_ part: DatePart, of date: Date) -> Value {
        let calendar = Calendars.local
        switch part {
        case .year: return .int(calendar.component(.year, from: date))
        case .month: return .int(calendar.component(.month, from: date))
        case .day: return .int(calendar.component(.day, from: date))
        case .hour: return .int(calendar.component(.hour, from: date))
        case .minute: return .int(calendar.component(.minute, from: date))
        case .second: return .int(calendar.component(.second, from: date))
        case .weekday: return .text(DateFormatting.weekdays[calendar.component(.weekday, from: date) - 1])
        case .monthName: return .text(DateFormatting.months[calendar.component(.month, from: date) - 1])
        case .startOfDay: return .date(calendar.startOfDay(for: date))
        case .startOfWeek: return .date(DateFormatting.start(of: .weekOfYear, for: date))
        case .startOfMonth: return .date(DateFormatting.start(of: .month, for: date))
        case .startOfYear: return .date(DateFormatting.start(of: .year, for: date))
        }
    }

    /// Throws unless the run may read the file's metadata: nothing to check when every read is granted (the common
    /// case, and a listing's speed), the path resolved as the file intents resolve theirs otherwise.
    static func checkGranted(_ property: FileProperty, of file: FileRef, _ grants: Grants) throws(EvaluationError) {
        guard property.readsFileSystem, grants.read != .all else { return }
        let resolved: String
        do {
            resolved = try GrantedPath.resolve(file.path, followingLink: property != .kind)
        } catch {
            throw EvaluationError(error.description)
        }
        guard grants.allows(.read, path: resolved) else { throw EvaluationError(grants.refusal(.read, "'\(resolved)'")) }
    }

    /// The properties read from the file system come from one `stat` (a link's own for `kind`, its target's for the
    /// rest, as `ls -L` shows them): `FileManager.attributesOfItem` builds a dictionary of every attribute each time,
    /// which made sorting a folder's files by size six times slower than `find`.
    static func fileProperty(_ property: FileProperty, of file: FileRef) -> Value {
        switch property {
        case .name: return .text(file.name)
        case .path: return .text(file.path)
        case .extension: return .text(file.pathExtension)
        case .parent: return .file(FileRef(path: (file.path as NSString).deletingLastPathComponent))
        case .exists:
            var status = stat()
            return .bool(FileCalls.stat(file.path, &status) == 0)
        case .kind:
            var status = stat()
            guard FileCalls.lstat(file.path, &status) == 0 else { return .null }
            switch status.st_mode & S_IFMT {
            case S_IFREG: return .text("file")
            case S_IFDIR: return .text("folder")
            case S_IFLNK: return .text("link")
            default: return .text("other")
            }
        case .size, .modified:
            var status = stat()
            guard FileCalls.stat(file.path, &status) == 0 else { return .null }
            if property == .size { return .size(Int64(status.st_size)) }
            return .date(Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
        case .created:
            // The birth time, where the file system keeps one (statx); nil elsewhere.
            var status = CLinux.statx()
            let found = FileNameBytes.withCString(file.path) { statx(AT_FDCWD, $0, 0, UInt32(STATX_BTIME), &status) }
            guard found == 0, status.stx_mask & UInt32(STATX_BTIME) != 0 else { return .null }
            return .date(Date(timeIntervalSince1970: Double(status.stx_btime.tv_sec) + Double(status.stx_btime.tv_nsec) / 1e9))
        }
    }
}
