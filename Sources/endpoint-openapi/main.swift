import EndpointOpenAPI
import Foundation

/// `endpoint-openapi generate DOCUMENT --output DIR [--config FILE] [--strict] [--single-file NAME]
/// [--stubs DIR] [--models-module NAME] [--models-output DIR]`
let usage = """
  usage: endpoint-openapi generate DOCUMENT --output DIR [--config FILE] [--strict]
                                  [--single-file NAME] [--stubs DIR]
                                  [--models-module NAME] [--models-output DIR]

  Writes Swift endpoints (one file per tag) and models (Models/) for an OpenAPI 3.0 or 3.1
  document in JSON or YAML. The source uses only EndpointCore and EndpointJSON.

    DOCUMENT        the OpenAPI document: .json, or .yaml and .yml (read through libyaml,
                    loaded at run time: apt-get install libyaml-0-2); a document that does not
                    start with { or [ is read as YAML whatever its name
    --output DIR    where the Swift files go; files a previous run wrote and this one did not
                    are removed, other files are left alone
    --config FILE   a JSON configuration: {"tags": [...], "operations": [...],
                    "namespacePrefix": "...", "accessLevel": "public" | "internal",
                    "stubs": "DIR", "namespaces": "tags" | "pathPrefix",
                    "pagination": {"style": "link" | "cursor", ...},
                    "modelsModule": "NAME", "modelsOutput": "DIR"}; by default
                    endpoint-openapi.json beside the document, when it exists
    --strict        fail on a construct that cannot be generated yet, instead of leaving it
                    out with a warning
    --single-file NAME
                    write everything into DIR/NAME (such as Endpoints.swift) instead of a
                    file per tag and per model: what a build-tool plugin needs, whose outputs
                    are named before the document is read
    --stubs DIR     also write DIR/<Namespace>+Stubs.swift: a StubClient answering each
                    operation with the document's example, for a test target (it imports
                    EndpointTesting); a relative "stubs" of the configuration is relative to
                    the configuration file, and ignored with --single-file
    --models-module NAME
                    write the models (and the date-time support file) into a module of their
                    own, NAME, that every endpoint and stub file imports, so that a change to
                    the endpoints does not recompile the models; they are public whatever the
                    access level, which applies to the endpoints only. Not with --single-file
    --models-output DIR
                    where that module's files go; by default the directory NAME beside the
                    output directory (--output Sources/GitHub puts them in
                    Sources/GitHubModels); a relative "modelsOutput" of the configuration is
                    relative to the configuration file
  """

struct UsageError: Error {
  var message: String
}

struct Arguments {
  var document: String
  var output: String
  var config: String?
  var strict = false
  var singleFile: String?
  var stubs: String?
  var modelsModule: String?
  var modelsOutput: String?

  init(_ arguments: [String]) throws(UsageError) {
    guard arguments.first == "generate" else {
      throw UsageError(
        message: arguments.first.map { "unknown command \"\($0)\"" } ?? "no command given")
    }
    var document: String?
    var output: String?
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "--output", "-o", "--config", "--single-file", "--stubs", "--models-module",
        "--models-output":
        guard let value = rest.popFirst() else {
          throw UsageError(message: "\(argument) needs a value")
        }
        switch argument {
        case "--config": config = value
        case "--single-file": singleFile = value
        case "--stubs": stubs = value
        case "--models-module": modelsModule = value
        case "--models-output": modelsOutput = value
        default: output = value
        }
      case "--strict":
        strict = true
      case _ where argument.hasPrefix("-"):
        throw UsageError(message: "unknown option \(argument)")
      default:
        guard document == nil else {
          throw UsageError(message: "one document at a time (got \(argument) too)")
        }
        document = argument
      }
    }
    guard let document else { throw UsageError(message: "no DOCUMENT given") }
    guard let output else { throw UsageError(message: "no --output DIR given") }
    self.document = document
    self.output = output
  }
}

func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

func read(_ path: String, what: String) -> Data? {
  do {
    return try Data(contentsOf: URL(fileURLWithPath: path))
  } catch {
    printError(
      "endpoint-openapi: error: cannot read the \(what) \(path): \(error.localizedDescription)")
    return nil
  }
}

/// Writes a file without `Data.write`'s `fsync`, which made writing thousands of files take
/// seconds: a generated file is made again by running the command again.
func write(_ data: Data, to url: URL) throws {
  guard let file = fopen(url.path, "wb") else {
    throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
  }
  let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  guard fclose(file) == 0, written == data.count else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
  }
}

/// The paths under `directory` of Swift files whose first line says this tool wrote them.
func previouslyGenerated(in directory: URL) -> [String] {
  guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
  var paths: [String] = []
  while let path = walker.nextObject() as? String {
    guard path.hasSuffix(".swift"),
      let handle = FileHandle(forReadingAtPath: directory.appendingPathComponent(path).path)
    else { continue }
    let start = handle.readData(ofLength: 40)
    handle.closeFile()
    if String(decoding: start, as: UTF8.self).hasPrefix("// Generated by endpoint-openapi") {
      paths.append(path)
    }
  }
  return paths
}

/// The files as one: the first file's header, then each file's source under a mark naming it.
/// Every file's imports are kept; Swift allows a module imported twice.
func combined(_ files: [OpenAPIGenerator.File], named name: String) -> OpenAPIGenerator.File {
  var contents = ""
  for file in files {
    var lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
    if contents.isEmpty {
      contents = lines.removeFirst() + "\n"
    } else if lines.first?.hasPrefix("// Generated by endpoint-openapi") == true {
      lines.removeFirst()
    }
    contents += "\n// MARK: - \(file.path)\n" + lines.joined(separator: "\n")
  }
  return OpenAPIGenerator.File(path: name, contents: contents)
}

func run() -> Int32 {
  let commandLine = Array(CommandLine.arguments.dropFirst())
  if commandLine.isEmpty || commandLine.contains("--help") || commandLine.contains("-h") {
    print(usage)
    return commandLine.isEmpty ? 2 : 0
  }
  let arguments: Arguments
  do {
    arguments = try Arguments(commandLine)
  } catch {
    printError("endpoint-openapi: error: \(error.message)\n\n\(usage)")
    return 2
  }

  var options = OpenAPIGenerator.Options()
  let documentURL = URL(fileURLWithPath: arguments.document)
  let besideDocument = documentURL.deletingLastPathComponent()
    .appendingPathComponent("endpoint-openapi.json").path
  let configPath =
    arguments.config
    ?? (FileManager.default.fileExists(atPath: besideDocument) ? besideDocument : nil)
  if let configPath {
    guard let data = read(configPath, what: "configuration") else { return 1 }
    do {
      options = try OpenAPIGenerator.Options(configuration: data)
    } catch {
      printError("endpoint-openapi: error: \(configPath): \(error)")
      return 1
    }
    let configDirectory = URL(fileURLWithPath: configPath).deletingLastPathComponent()
    if let stubs = options.stubs {
      options.stubs = URL(fileURLWithPath: stubs, relativeTo: configDirectory).path
    }
    if let models = options.modelsOutput {
      options.modelsOutput = URL(fileURLWithPath: models, relativeTo: configDirectory).path
    }
  }
  options.strict = arguments.strict
  // A build-tool plugin names its outputs before the document is read, and may write only
  // there: with --single-file, the configuration's stubs are left to a run of the command.
  if arguments.singleFile != nil { options.stubs = nil }
  if let stubs = arguments.stubs { options.stubs = stubs }
  if let module = arguments.modelsModule { options.modelsModule = module }
  if let models = arguments.modelsOutput { options.modelsOutput = models }
  let outputURL = URL(fileURLWithPath: arguments.output).standardizedFileURL
  var modelsURL: URL?
  if let module = options.modelsModule {
    // Beside the output directory by default: Sources/GitHub and Sources/GitHubModels.
    let models = URL(
      fileURLWithPath: options.modelsOutput
        ?? outputURL.deletingLastPathComponent().appendingPathComponent(module).path
    ).standardizedFileURL
    guard arguments.singleFile == nil else {
      printError(
        "endpoint-openapi: error: the models module \(module) needs files of its own: "
          + "--single-file writes one file, for one module")
      return 1
    }
    guard models.path != outputURL.path else {
      printError(
        "endpoint-openapi: error: the models module \(module) needs a directory of its own, "
          + "not the output directory \(arguments.output)")
      return 1
    }
    modelsURL = models
  } else if options.modelsOutput != nil {
    printError(
      "endpoint-openapi: error: --models-output is where the models module goes: "
        + "name it with --models-module or \"modelsModule\"")
    return 1
  }

  guard let document = read(arguments.document, what: "document") else { return 1 }
  var output: OpenAPIGenerator.Output
  do {
    output = try OpenAPIGenerator(options: options).generate(
      document: document, named: documentURL.lastPathComponent)
    if let name = arguments.singleFile { output.files = [combined(output.files, named: name)] }
  } catch {
    printError("endpoint-openapi: error: \(arguments.document): \(error)")
    return 1
  }
  for warning in output.warnings {
    printError("endpoint-openapi: warning: \(warning.pointer): \(warning.message)")
  }

  // The endpoints and models, and the stubs and the models module in their own directories; a
  // file of any that a previous run wrote and this one did not is stale.
  var targets = [(outputURL, output.files)]
  if let stubs = options.stubs { targets.append((URL(fileURLWithPath: stubs), output.stubs)) }
  if let modelsURL { targets.append((modelsURL, output.models)) }
  let written = Set(
    targets.flatMap { directory, files in
      files.map { directory.appendingPathComponent($0.path).standardizedFileURL.path }
    })
  let stale = Set(
    targets.flatMap { directory, _ in
      previouslyGenerated(in: directory).map {
        directory.appendingPathComponent($0).standardizedFileURL.path
      }
    }
  ).subtracting(written)
  do {
    for (directory, files) in targets {
      for file in files {
        let url = directory.appendingPathComponent(file.path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = Data(file.contents.utf8)
        // An unchanged file keeps its date, so the build does not recompile it.
        if (try? Data(contentsOf: url)) != data { try write(data, to: url) }
      }
    }
    let roots = Set(targets.map { $0.0.standardizedFileURL.path })
    for path in stale.sorted() {
      try FileManager.default.removeItem(atPath: path)
      // A directory the removal left empty goes too (Models/ once the models have a module of
      // their own), up to the output directory.
      var parent = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
      while !roots.contains(parent.path),
        (try? FileManager.default.contentsOfDirectory(atPath: parent.path))?.isEmpty == true
      {
        try FileManager.default.removeItem(at: parent)
        parent = parent.deletingLastPathComponent()
      }
    }
  } catch {
    printError(
      "endpoint-openapi: error: cannot write to \(arguments.output): \(error.localizedDescription)")
    return 1
  }
  print(
    "endpoint-openapi: wrote \(output.files.count) files to \(arguments.output)"
      + (options.stubs.map { ", \(output.stubs.count) stub files to \($0)" } ?? "")
      + (modelsURL.map { ", \(output.models.count) model files to \($0.path)" } ?? "")
      + (stale.isEmpty ? "" : ", removed \(stale.count) stale")
      + (output.warnings.isEmpty
        ? "" : "; \(output.warnings.count) constructs left out (warnings above)"))
  return 0
}

exit(run())
