import ArgumentParser
import AutoAutomation
import AutoTerminal
import Foundation
import Logging

/// `auto automations status`: the daemons on a store and which one fires which automation. On PostgreSQL, the nodes
/// with their last heartbeat, their lease and the oldest fire due on them and not yet claimed (its lag), and each
/// automation's owner; on SQLite, the one daemon that holds the store, if any.
struct AutomationsStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "The daemons on the run store, and which fires which automation.",
        discussion: """
            On a shared store (PostgreSQL), each node: its name, host and pid, its version, when it started, its last \
            heartbeat, how long its lease has left, how many automations it owns, and the lag of the oldest fire due on \
            it that it has not claimed yet, and on how many automations it has another definition than the store (its \
            script differs: it was edited and the node has not loaded the edit, or the node loaded an edit the others \
            have not). Then each time automation with its owner and its definition (the start of the SHA-256 of its \
            declaration), with the live nodes that have another one and so don't fire it. A node whose lease ran out \
            is shown as expired until another takes its automations over; one that stopped, as left.
            """)

    @OptionGroup var store: StoreOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let location = store.location
        let status: ClusterStatus
        if location.isShared {
            let opened = try await AutomationScripts.store(store)
            guard let shared = opened as? any ClusterStore else { throw CommandExit(code: 1) }
            do {
                status = try await shared.status()
            } catch {
                Console.standard.writeError("error: \(error)\n")
                throw CommandExit(code: 1)
            }
            await (opened as? PostgresRunStore)?.close()
        } else {
            status = try await Self.singleDaemon(location)
        }
        Console.standard.writeOut(json ? AutomationScripts.json(Self.object(status, store: location)) + "\n" : Self.text(status, store: location))
    }

    /// What a SQLite store says in the same terms: the daemon that holds it is the one node, and owns every automation.
    static func singleDaemon(_ location: RunStoreLocation) async throws -> ClusterStatus {
        guard case .sqlite(let path) = location else { throw CommandExit(code: 1) }
        // Before the store is opened: see `StoreLock.daemon(holding:)`.
        let holder = StoreLock.daemon(holding: path)
        let now = Date()
        var nodes: [ClusterStatus.Node] = []
        if let holder {
            let host = ProcessInfo.processInfo.hostName
            nodes.append(ClusterStatus.Node(id: 1, info: NodeInfo(name: host, host: host, pid: holder.pid ?? 0, version: ""), started: now,
                                            heartbeat: now, leaseUntil: .distantFuture, left: nil, oldestDue: nil))
        }
        guard location.exists else { return ClusterStatus(now: now, nodes: nodes, automations: []) }
        let automations: [AutomationKey]
        do {
            automations = try SQLiteRunStore(path: path).scheduledAutomations()
        } catch {
            Console.standard.writeError("error: \(error)\n")
            throw CommandExit(code: 1)
        }
        return ClusterStatus(now: now, nodes: nodes, automations: automations.map {
            ClusterStatus.Ownership(automation: $0, owner: holder == nil ? nil : 1, epoch: 0, since: nil)
        })
    }

    static func text(_ status: ClusterStatus, store: RunStoreLocation) -> String {
        var text = "store \(store)\(store.isShared ? " (shared by the nodes below)" : "")\n"
        let owned = Dictionary(grouping: status.automations.compactMap(\.owner), by: { $0 }).mapValues(\.count)
        if status.nodes.isEmpty {
            text += store.isShared ? "no node has joined in the last hour: nothing fires\n"
                                   : "no daemon holds it: nothing fires until one runs (auto daemon SCRIPT|DIR…)\n"
        } else if store.isShared {
            var table = [["NODE", "HOST", "PID", "VERSION", "STARTED", "HEARTBEAT", "LEASE", "OWNS", "OLDEST DUE", "DEFINITIONS"]]
            let differing = Dictionary(grouping: status.automations.flatMap(\.otherDefinition), by: { $0 }).mapValues(\.count)
            for node in status.nodes {
                let lease: String
                if let left = node.left { lease = "left \(Self.ago(status.now.timeIntervalSince(left)))" } else if status.isLive(node) {
                    lease = "\(Self.seconds(node.leaseUntil.timeIntervalSince(status.now))) left"
                } else {
                    lease = "expired \(Self.ago(status.now.timeIntervalSince(node.leaseUntil)))"
                }
                let due = node.oldestDue.map { "lag \(Self.seconds(status.now.timeIntervalSince($0)))" } ?? "-"
                table.append([node.info.name, node.info.host, "\(node.info.pid)", node.info.version, AutomationScripts.iso(node.started),
                              Self.ago(status.now.timeIntervalSince(node.heartbeat)), lease, "\(owned[node.id] ?? 0)", status.isLive(node) ? due : "-",
                              !status.isLive(node) ? "-" : differing[node.id].map { "\($0) differ" } ?? "same"])
            }
            text += History.aligned(table)
        } else if let daemon = status.nodes.first {
            text += "held by the daemon with pid \(daemon.info.pid), which fires every automation\n"
        }
        guard !status.automations.isEmpty else { return text }
        var table = [["AUTOMATION", "SCRIPT", "OWNER", "SINCE"] + (store.isShared ? ["DEFINITION"] : [])]
        for ownership in status.automations {
            var owner = "(none)"
            if let name = status.ownerName(of: ownership) {
                owner = store.isShared ? name : "the daemon"
            } else if let id = ownership.owner {
                owner = "node \(id) (gone)"
            }
            var row = [ownership.automation.name, ownership.automation.script, owner, ownership.since.map { AutomationScripts.iso($0) } ?? ""]
            if store.isShared { row.append(Self.definition(ownership, in: status)) }
            table.append(row)
        }
        return text + "\n" + History.aligned(table)
    }

    /// `3f2a9c1e0b7d`, and the live nodes with another definition: `3f2a9c1e0b7d, not on b, c`.
    static func definition(_ ownership: ClusterStatus.Ownership, in status: ClusterStatus) -> String {
        let short = ownership.definition.map { String($0.prefix(12)) } ?? "-"
        guard !ownership.otherDefinition.isEmpty else { return short }
        let names = ownership.otherDefinition.map { id in status.nodes.first { $0.id == id }?.info.name ?? "node \(id)" }
        return "\(short), not on \(names.joined(separator: ", "))"
    }

    static func object(_ status: ClusterStatus, store: RunStoreLocation) -> [String: Any] {
        let differing = Dictionary(grouping: status.automations.flatMap(\.otherDefinition), by: { $0 }).mapValues(\.count)
        let nodes: [[String: Any]] = status.nodes.map { node in
            var object: [String: Any] = ["id": node.id, "name": node.info.name, "host": node.info.host, "pid": node.info.pid,
                                         "version": node.info.version, "live": status.isLive(node)]
            if store.isShared {
                object["started"] = AutomationScripts.iso(node.started)
                object["heartbeat"] = AutomationScripts.iso(node.heartbeat)
                object["leaseUntil"] = AutomationScripts.iso(node.leaseUntil)
                // Automations on which the node has another definition than the store's (it doesn't fire them).
                object["otherDefinitions"] = differing[node.id] ?? 0
            }
            if let left = node.left { object["left"] = AutomationScripts.iso(left) }
            if let due = node.oldestDue, status.isLive(node) {
                object["oldestDue"] = AutomationScripts.iso(due)
                object["lagSeconds"] = max(0, status.now.timeIntervalSince(due))
            }
            return object
        }
        let automations: [[String: Any]] = status.automations.map { ownership in
            var object: [String: Any] = ["name": ownership.automation.name, "script": ownership.automation.script]
            if let owner = ownership.owner { object["owner"] = owner }
            if store.isShared {
                object["epoch"] = ownership.epoch
                if let definition = ownership.definition { object["definition"] = definition }
                object["otherDefinition"] = ownership.otherDefinition
            }
            if let since = ownership.since { object["since"] = AutomationScripts.iso(since) }
            return object
        }
        return ["store": store.description, "shared": store.isShared, "nodes": nodes, "automations": automations]
    }

    /// `0.4 s ago`, `3 min ago`.
    static func ago(_ interval: TimeInterval) -> String {
        let interval = max(0, interval)
        return interval < 120 ? "\(seconds(interval)) ago" : interval < 7_200 ? "\(Int(interval / 60)) min ago" : "\(Int(interval / 3_600)) h ago"
    }

    static func seconds(_ interval: TimeInterval) -> String {
        String(format: "%.1f s", max(0, interval))
    }
}
