// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Endpoint",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "EndpointCore", targets: ["EndpointCore"]),
    .library(name: "EndpointJSON", targets: ["EndpointJSON"]),
    .library(name: "EndpointTransport", targets: ["EndpointTransport"]),
    .library(name: "EndpointTesting", targets: ["EndpointTesting"]),
    .library(name: "EndpointCurl", targets: ["EndpointCurl"]),
    .library(name: "EndpointDefaultClient", targets: ["EndpointDefaultClient"]),
    .executable(name: "EndpointExample", targets: ["EndpointExample"]),
    .executable(name: "S3Example", targets: ["S3Example"]),
    // The OpenAPI generator: a build tool, never linked by an app.
    .executable(name: "endpoint-openapi", targets: ["endpoint-openapi"]),
    // The generator as SwiftPM plugins: on demand into checked-in source
    // (`swift package generate-endpoints`), or at every build.
    .plugin(name: "EndpointOpenAPICommand", targets: ["EndpointOpenAPICommand"]),
    .plugin(name: "EndpointOpenAPIGenerator", targets: ["EndpointOpenAPIGenerator"]),
  ],
  targets: [
    // The helpers every layer shares that know no SDK type (locks, HTTP tokens and dates, JSON
    // string literals, duration text); a target, not a product, and never re-exported.
    .target(name: "EndpointPrimitives"),
    .target(name: "EndpointCore", dependencies: ["EndpointPrimitives"]),
    .target(name: "EndpointJSON", dependencies: ["EndpointCore", "EndpointPrimitives"]),
    // The HTTP rules and structures both transports run on; a target, not a product.
    .target(name: "EndpointKernel", dependencies: ["EndpointCore", "EndpointPrimitives"]),
    .target(
      name: "EndpointTransport",
      dependencies: ["EndpointCore", "EndpointKernel", "EndpointPrimitives"]
    ),
    .target(
      name: "EndpointTesting",
      dependencies: ["EndpointCore", "EndpointKernel", "EndpointPrimitives"]
    ),
    // libcurl is opened at run time (dlopen): no curl headers or link flags at build time.
    .target(
      name: "CCurl",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
    ),
    .target(
      name: "EndpointCurl",
      dependencies: ["EndpointCore", "EndpointKernel", "EndpointPrimitives", "CCurl"]
    ),
    // The one module that imports both transports: the platform's default client.
    .target(
      name: "EndpointDefaultClient",
      dependencies: ["EndpointCore", "EndpointKernel", "EndpointTransport", "EndpointCurl"]
    ),
    .executableTarget(
      name: "EndpointExample",
      dependencies: ["EndpointCore", "EndpointJSON", "EndpointDefaultClient", "EndpointTesting"],
      path: "Examples/EndpointExample"
    ),
    // S3 through the SDK's public API: SigV4 middleware, XML, both transports (scripts/s3-example.sh).
    .executableTarget(
      name: "S3Example",
      dependencies: ["EndpointCore", "EndpointDefaultClient", "EndpointTransport"],
      path: "Examples/S3Example"
    ),
    // From an OpenAPI document to endpoints and models that use only EndpointCore and
    // EndpointJSON. Foundation (and libyaml, loaded at run time); it imports no runtime module.
    // libyaml is opened at run time (dlopen), for YAML documents only: no yaml headers or
    // link flags at build time (scripts/check-openapi-yaml-abi.sh checks the declarations).
    .target(
      name: "CYAML",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
    ),
    .target(name: "EndpointOpenAPI", dependencies: ["CYAML"]),
    .executableTarget(name: "endpoint-openapi", dependencies: ["EndpointOpenAPI"]),
    .plugin(
      name: "EndpointOpenAPICommand",
      capability: .command(
        intent: .custom(
          verb: "generate-endpoints",
          description: "Generate endpoints and models from an OpenAPI document (JSON or YAML)"
        ),
        permissions: [
          .writeToPackageDirectory(reason: "writes the generated Swift files into the package")
        ]
      ),
      dependencies: ["endpoint-openapi"]
    ),
    // Generates from openapi.yaml (or .yml, .json) in the target's directory at build time.
    .plugin(
      name: "EndpointOpenAPIGenerator",
      capability: .buildTool(),
      dependencies: ["endpoint-openapi"]
    ),
    // Imports only EndpointCore and EndpointJSON; the linkage check runs `ldd` on it.
    .executableTarget(
      name: "LinkageProbe",
      dependencies: ["EndpointCore", "EndpointJSON"],
      path: "Tools/LinkageProbe"
    ),
    .executableTarget(
      name: "CoreBenchmarks",
      dependencies: ["EndpointCore", "EndpointJSON"],
      path: "Benchmarks/CoreBenchmarks"
    ),
    .executableTarget(
      name: "TransportBenchmarks",
      dependencies: [
        "EndpointCore", "EndpointKernel", "EndpointJSON", "EndpointTransport", "EndpointCurl",
      ],
      path: "Benchmarks/TransportBenchmarks"
    ),
    // What a request to a server that never answers costs in CPU (scripts/bench-silent-cpu.sh).
    .executableTarget(
      name: "SilentServerCPU",
      dependencies: ["EndpointCore", "EndpointTransport", "EndpointCurl"],
      path: "Benchmarks/SilentServerCPU"
    ),
    // Run by the transport tests as a child process: wedges and crashes fail a test, not the run.
    .executableTarget(
      name: "TransportProbe",
      dependencies: ["EndpointCore", "EndpointKernel", "EndpointTransport", "EndpointCurl"],
      path: "Tests/TransportProbe"
    ),
    // Shared by the test targets that reach the loopback test servers; not a product.
    .target(
      name: "EndpointTestSupport",
      dependencies: ["EndpointCore", "EndpointPrimitives"],
      path: "Tests/EndpointTestSupport"
    ),
    .testTarget(
      name: "EndpointCoreTests",
      dependencies: ["EndpointCore", "EndpointKernel", "EndpointPrimitives", "EndpointTestSupport"]
    ),
    .testTarget(name: "EndpointJSONTests", dependencies: ["EndpointCore", "EndpointJSON"]),
    .testTarget(
      name: "EndpointTransportTests",
      dependencies: [
        "EndpointCore", "EndpointKernel", "EndpointJSON", "EndpointTransport", "EndpointCurl",
        "EndpointTestSupport", "EndpointDefaultClient", "EndpointTesting", "EndpointPrimitives",
      ]
    ),
    .testTarget(
      name: "EndpointCurlTests",
      dependencies: [
        "EndpointCore", "EndpointKernel", "EndpointJSON", "EndpointCurl", "EndpointTestSupport",
        "EndpointPrimitives",
      ]
    ),
    // The seed documents' samples, compiled and run against the loopback servers.
    .testTarget(
      name: "SeedTests",
      dependencies: ["EndpointCore", "EndpointJSON", "EndpointTransport", "EndpointTestSupport"]
    ),
    // Stand-ins for the packages whose types share the SDK's names, and the documented way of
    // using both in one app (ARCHITECTURE.md, "Names in the ecosystem").
    .target(name: "Namesakes", path: "Tests/Namesakes"),
    .testTarget(
      name: "EcosystemNamesTests",
      dependencies: ["EndpointCore", "EndpointTesting", "Namesakes"]
    ),
    // Generated source compared with expected source, type-checked against the built
    // EndpointCore and EndpointJSON, and the expected source run against a StubClient and,
    // over the wire, against a server that answers the document's operations.
    .testTarget(
      name: "EndpointOpenAPITests",
      dependencies: [
        "EndpointOpenAPI", "EndpointCore", "EndpointJSON", "EndpointTesting", "EndpointTestSupport",
        "EndpointTransport",
      ],
      exclude: ["Documents"]
    ),
    .testTarget(
      name: "EndpointTestingTests",
      dependencies: [
        "EndpointCore", "EndpointJSON", "EndpointTesting", "EndpointTransport",
        "EndpointTestSupport", "EndpointKernel", "EndpointPrimitives",
      ]
    ),
  ]
)
