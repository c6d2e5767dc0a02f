// `swift run S3Example --endpoint URL`: S3 through Endpoint, as a user of the SDK writes it.
//
// Every request passes SigV4Signer (AWS Signature Version 4, the last middleware), responses are
// S3's XML read with FoundationXML, and S3's error documents become S3Error. The default client
// sends (libcurl on Linux, URLSession on Apple platforms); `--urlsession` picks
// URLSessionHTTPClient. scripts/s3-example.sh runs it both ways against moto on loopback.

import EndpointDefaultClient
import EndpointTransport
import Foundation

let options: S3Options
do {
  guard let parsed = try S3Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    print(S3Options.usage)
    exit(0)
  }
  options = parsed
} catch {
  FileHandle.standardError.write(Data("S3Example: error: \(error)\n\n\(S3Options.usage)\n".utf8))
  exit(64)  // EX_USAGE
}

let environment = AWSCredentials.fromEnvironment()
guard
  let accessKeyID = options.accessKeyID ?? environment?.accessKeyID,
  let secret = options.secretAccessKey ?? environment?.secretAccessKey
else {
  FileHandle.standardError.write(
    Data(
      "S3Example: error: no credentials: pass --access-key and --secret-key, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\n"
        .utf8))
  exit(64)
}
let credentials = AWSCredentials(
  accessKeyID: accessKeyID, secretAccessKey: secret,
  sessionToken: options.accessKeyID == nil ? environment?.sessionToken : nil)

/// Runs the tour over `transport`; returns the process's exit status.
func run(over transport: some HTTPTransferClient, named name: String) async -> Int32 {
  print("S3 tour over \(name) against \(options.endpoint), region \(options.region).")
  let tour = S3Tour(
    transport: transport, endpoint: options.endpoint, region: options.region,
    credentials: credentials, bucket: options.bucket, serverSlowsDown: options.serverSlowsDown)
  do {
    try await tour.run()
    print("All \(tour.steps) steps passed.")
    return 0
  } catch {
    FileHandle.standardError.write(
      Data("S3Example: step \(tour.steps + 1) failed: \(error)\n".utf8))
    await tour.cleanUp()
    return 1
  }
}

if options.useURLSession {
  exit(await run(over: URLSessionHTTPClient(), named: "URLSessionHTTPClient"))
} else {
  let client = DefaultHTTPClient.make()
  exit(await run(over: client, named: "\(type(of: client.base)) (DefaultHTTPClient)"))
}
