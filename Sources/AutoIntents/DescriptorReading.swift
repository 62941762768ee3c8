import Glibc

/// Reading an open file to its end with read(2), whatever it is — a file, a pipe, a FIFO, `/dev/fd/N` — rather than
/// Foundation's `Data(contentsOf:)`, which sizes a file first: for the scripts `auto run` and the daemon load.
package enum DescriptorReading {
    /// What reading gave: every byte, more than the limit allowed, or the `errno` of a read that failed.
    package enum Outcome: Equatable {
        case bytes([UInt8])
        case tooLong
        case failed(Int32)
    }

    /// Reads `descriptor` to its end, at most `limit` bytes; a read cut short by a signal is tried again.
    package static func readAll(_ descriptor: Int32, limit: Int = .max) -> Outcome {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if count == 0 { return .bytes(bytes) }
            guard bytes.count + count <= limit else { return .tooLong }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
