import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// CPU time and context switches of the whole process so far.
struct ProcessUsage {
  let cpuMicros: Double
  let contextSwitches: Int

  static func now() -> ProcessUsage {
    var usage = rusage()
    _ = getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
    let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
    return ProcessUsage(
      cpuMicros: user + system,
      contextSwitches: Int(usage.ru_nvcsw + usage.ru_nivcsw)
    )
  }
}

/// One measured window of one client.
struct Sample {
  let requests: Int
  let failures: Int
  let seconds: Double
  let cpuMicros: Double
  let contextSwitches: Int
  let firstFailure: String?

  var requestsPerSecond: Double { Double(requests) / seconds }
  var cpuMicrosPerRequest: Double { cpuMicros / Double(max(requests, 1)) }
  var switchesPerRequest: Double { Double(contextSwitches) / Double(max(requests, 1)) }
}

extension Duration {
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// Runs `fetcher` from `concurrency` tasks, each calling it back to back, for `seconds`.
///
/// The window ends when the last call started before the deadline has finished; CPU time and
/// context switches are the whole process's over that window.
func measure(_ fetcher: Fetcher, concurrency: Int, seconds: Double) async -> Sample {
  let clock = ContinuousClock()
  let before = ProcessUsage.now()
  let start = clock.now
  let deadline = start + .milliseconds(Int(seconds * 1000))
  let fetch = fetcher.fetch
  let executor = fetcher.executor
  let results = await withTaskGroup(of: (Int, Int, String?).self) { group in
    for _ in 0..<concurrency {
      group.addTask(executorPreference: executor) {
        var done = 0
        var failed = 0
        var firstFailure: String?
        while clock.now < deadline {
          do {
            try await fetch()
            done += 1
          } catch {
            failed += 1
            if firstFailure == nil { firstFailure = String(describing: error) }
          }
        }
        return (done, failed, firstFailure)
      }
    }
    var total = (0, 0, nil as String?)
    for await (done, failed, firstFailure) in group {
      total.0 += done
      total.1 += failed
      total.2 = total.2 ?? firstFailure
    }
    return total
  }
  let elapsed = (clock.now - start).seconds
  let after = ProcessUsage.now()
  return Sample(
    requests: results.0,
    failures: results.1,
    seconds: elapsed,
    cpuMicros: after.cpuMicros - before.cpuMicros,
    contextSwitches: after.contextSwitches - before.contextSwitches,
    firstFailure: results.2
  )
}

/// Runs exactly `count` calls of `fetcher`, `concurrency` at a time.
func runCount(_ fetcher: Fetcher, count: Int, concurrency: Int) async -> (
  failures: Int, firstFailure: String?
) {
  let next = Counter()
  let fetch = fetcher.fetch
  return await withTaskGroup(of: (Int, String?).self) { group in
    for _ in 0..<concurrency {
      group.addTask {
        var failed = 0
        var firstFailure: String?
        while next.value.add(1, ordering: .relaxed).oldValue < count {
          do {
            try await fetch()
          } catch {
            failed += 1
            if firstFailure == nil { firstFailure = String(describing: error) }
          }
        }
        return (failed, firstFailure)
      }
    }
    var total = (0, nil as String?)
    for await (failed, firstFailure) in group {
      total.0 += failed
      total.1 = total.1 ?? firstFailure
    }
    return total
  }
}

/// A counter shared by the tasks of a run.
final class Counter: Sendable {
  let value = Atomic<Int>(0)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A field of /proc/self/status in kB (`VmHWM`, `VmRSS`).
func procStatusKilobytes(_ field: String) -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return nil
  }
  for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
    let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
    return Int(digits)
  }
  return nil
}

/// The 1, 5 and 15 minute load averages.
func loadAverage() -> String {
  let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// Bytes malloc has handed out and not had back (all arenas, mmapped blocks included), in kB:
/// it grows with a leak, unlike RSS, which also grows with fragmentation and with freed memory
/// the allocator keeps. From glibc's `malloc_info` (not in Swift's Glibc module, so looked up).
func heapInUseKilobytes() -> Int {
  #if canImport(Glibc)
    typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else {
      return -1
    }
    let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    guard let stream = open_memstream(&buffer, &size) else { return -1 }
    _ = mallocInfo(0, stream)
    fclose(stream)
    guard let buffer else { return -1 }
    defer { free(buffer) }
    let xml = String(cString: buffer)
    // The closing totals (after the last </heap>): free chunks, mmapped blocks, arena sizes.
    guard let tail = xml.range(of: "</heap>", options: .backwards).map({ xml[$0.upperBound...] })
    else { return -1 }
    func attribute(_ element: String, _ name: String) -> Int {
      guard let range = tail.range(of: element) else { return 0 }
      let rest = tail[range.upperBound...]
      guard let start = rest.range(of: name + "=\"") else { return 0 }
      let digits = rest[start.upperBound...].prefix { $0.isNumber }
      return Int(digits) ?? 0
    }
    let free =
      attribute("<total type=\"fast\"", "size") + attribute("<total type=\"rest\"", "size")
    let mmapped = attribute("<total type=\"mmap\"", "size")
    let arenas = attribute("<system type=\"current\"", "size")
    return (arenas - free + mmapped) / 1024
  #else
    return -1
  #endif
}
