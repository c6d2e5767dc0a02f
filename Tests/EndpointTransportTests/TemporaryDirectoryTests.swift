import EndpointTestSupport
import Foundation
import Testing

/// Every file a test makes lives in a directory that goes when the test ends, however it ends.
@Suite struct TemporaryDirectoryTests {
  @Test func theDirectoryIsRemovedWithItsFilesWhenTheBodyReturns() throws {
    let directory = try withTemporaryDirectory { directory in
      try Data("x".utf8).write(to: directory.appending(path: "file"))
      try FileManager.default.createDirectory(
        at: directory.appending(path: "nested"), withIntermediateDirectories: false)
      return directory
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func theDirectoryIsRemovedWhenTheBodyThrows() async throws {
    struct Thrown: Error { let directory: URL }
    let error = await #expect(throws: Thrown.self) {
      try await withTemporaryDirectory { directory in
        try Data("x".utf8).write(to: directory.appending(path: "file"))
        await Task.yield()
        throw Thrown(directory: directory)
      }
    }
    let directory = try #require(error?.directory)
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }
}
