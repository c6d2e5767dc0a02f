import EndpointCore
import EndpointKernel
import EndpointTestSupport
import Foundation
import Testing

/// The download file both transports write: hidden while partial, renamed when complete, gone on
/// any failure.
@Suite struct DownloadFileTests {
  private func names(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  @Test func aCommittedFileHoldsEveryWriteAtItsDestination() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("body.bin")
      let file = try DownloadFile(destination: destination)
      #expect(file.partialURL.deletingLastPathComponent().path == directory.path)
      #expect(file.partialURL.lastPathComponent.hasPrefix(".body.bin."))
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      try file.write(Data("hello ".utf8))
      let rest = Array("world".utf8)
      try rest.withUnsafeBytes { try file.write($0.baseAddress!, count: $0.count) }
      try file.write(Data())
      try file.commit()
      #expect(try Data(contentsOf: destination) == Data("hello world".utf8))
      #expect(try names(in: directory) == ["body.bin"])
    }
  }

  @Test func aCommitReplacesAFileAlreadyThere() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("body.bin")
      try Data("old contents".utf8).write(to: destination)
      let file = try DownloadFile(destination: destination)
      try file.write(Data("new".utf8))
      try file.commit()
      #expect(try Data(contentsOf: destination) == Data("new".utf8))
    }
  }

  @Test func aDiscardedFileLeavesNothingAndIgnoresLaterWrites() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("body.bin")
      let file = try DownloadFile(destination: destination)
      try file.write(Data("partial".utf8))
      file.discard()
      file.discard()
      try file.write(Data("late".utf8))
      #expect(try names(in: directory).isEmpty)
      let error = #expect(throws: TransportFailure.self) { try file.commit() }
      #expect(error?.kind == .downloadFile)
      #expect(error?.fileURL == destination)
      #expect(try names(in: directory).isEmpty)
    }
  }

  @Test func aFileDroppedWithoutCommitIsDeleted() throws {
    try withTemporaryDirectory { directory in
      do {
        let file = try DownloadFile(destination: directory.appendingPathComponent("body.bin"))
        try file.write(Data("partial".utf8))
        #expect(try names(in: directory).count == 1)
      }
      #expect(try names(in: directory).isEmpty)
    }
  }

  @Test func aDestinationInAMissingDirectoryFailsWithTheDestination() throws {
    try withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("missing/body.bin")
      let error = #expect(throws: TransportFailure.self) {
        _ = try DownloadFile(destination: destination)
      }
      #expect(error?.kind == .downloadFile)
      #expect(error?.fileURL == destination)
    }
  }
}
