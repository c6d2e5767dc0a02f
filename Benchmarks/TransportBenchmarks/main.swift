// Measures the URLSession transport against plain URLSession on loopback: throughput and CPU
// per request of a JSON call, peak memory of large bodies, and stability under load.
//
// Run it through scripts/bench-transport.sh, which starts nginx and passes --base.

import Foundation

let options: Options
do {
  options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
  log(String(describing: error))
  exit(2)
}
guard let base = options.base else {
  log("--base is required\n" + Options.usage)
  exit(2)
}

do {
  if let mode = options.child {
    try await runChild(mode, options: options, base: base)
    exit(0)
  }
  if let which = options.profile {
    try await runProfile(which, options: options, base: base)
    exit(0)
  }
  if options.allocations {
    try await runAllocations(options: options, base: base)
    exit(0)
  }
  try await runSuite(options: options, base: base)
} catch {
  log("failed: \(error)")
  exit(1)
}
