import Foundation

/// Runs `body` with a new empty directory under the temporary directory, and removes the
/// directory with everything in it when `body` returns or throws.
///
/// `scripts/test.sh` runs the tests in a private temporary directory and fails when anything is
/// left in it, so every file a test makes belongs in one of these.
public func withTemporaryDirectory<Result>(
  _ body: (URL) throws -> Result
) throws -> Result {
  let directory = try makeDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Runs `body` with a new empty directory under the temporary directory, and removes the
/// directory with everything in it when `body` returns or throws.
public func withTemporaryDirectory<Result>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: (URL) async throws -> Result
) async throws -> Result {
  let directory = try makeDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  return try await body(directory)
}

private func makeDirectory() throws -> URL {
  let directory = FileManager.default.temporaryDirectory
    .appending(path: "endpoint-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}
