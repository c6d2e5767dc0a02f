/// One run of the generator over a loaded document.
struct Generation {
  enum ModelState {
    case inProgress
    case done(ModelDecl, nullable: Bool)
    case skipped
  }

  let document: LoadedDocument
  var options: OpenAPIGenerator.Options
  let documentName: String
  var warnings: [OpenAPIGenerator.Warning] = []
  /// Every top-level name: models, then namespaces.
  var topNames = NameScope(reserved: SwiftNames.reservedTypes)
  /// Schema name → Swift type name.
  var modelNames: [String: String] = [:]
  var modelStates: [String: ModelState] = [:]
  /// The schemas where `format: binary` is `Data`: a multipart body's parts, while it is read.
  var binaryPointers: Set<String> = []
  let schemas: [String: JSONNode]

  init(document: LoadedDocument, options: OpenAPIGenerator.Options, documentName: String) {
    self.document = document
    self.options = options
    self.documentName = documentName
    schemas = document.root["components"]?["schemas"]?.object ?? [:]
  }

  mutating func run() -> OpenAPIGenerator.Output {
    for name in Self.dateSupportNames.union(Self.base64SupportNames) { _ = topNames.claim(name) }
    _ = topNames.claim(Self.calendarDayName)
    // No type takes the models module's name, which would hide the module.
    if let module = options.modelsModule { _ = topNames.claim(module) }
    for key in schemas.keys.sorted() {
      var name = SwiftNames.typeName(key)
      if SwiftNames.reservedTypes.contains(name) || Self.dateSupportNames.contains(name)
        || Self.base64SupportNames.contains(name)
        || name == Self.calendarDayName || name == options.modelsModule
      {
        name += "Schema"
      }
      modelNames[key] = topNames.claim(name)
    }
    for key in schemas.keys.sorted() {
      _ = ensureModel(key)
    }
    // Objects' properties last: every schema is classified by then, so a reference needs no
    // recursion into the schema it names.
    for key in schemas.keys.sorted() {
      guard case .done(let decl, let nullable) = modelStates[key], case .object = decl.shape
      else { continue }
      do {
        let model = try objectModel(
          name: decl.name, schema: schemas[key]!, pointer: Self.schemaPointer(key), doc: decl.doc)
        modelStates[key] = .done(model, nullable: nullable)
      } catch {
        warn(error, "the schema is skipped")
        modelStates[key] = .skipped
      }
    }
    var models: [ModelDecl] = schemas.keys.sorted().compactMap { key in
      if case .done(let decl, _) = modelStates[key] { return decl }
      return nil
    }
    breakRecursion(in: &models)
    let namespaces = translateOperations()

    var files: [OpenAPIGenerator.File] = []
    for namespace in namespaces where !namespace.operations.isEmpty {
      files.append(
        OpenAPIGenerator.File(
          path: namespace.name + ".swift", contents: emit(namespace: namespace)))
    }
    // In a module of their own, the models are public: the endpoints' module uses them.
    var modelFiles: [OpenAPIGenerator.File] = []
    var modelsGeneration = self
    if options.modelsModule != nil { modelsGeneration.options.accessLevel = .public }
    let directory = options.modelsModule == nil ? "Models/" : ""
    for model in models {
      modelFiles.append(
        OpenAPIGenerator.File(
          path: "\(directory)\(model.name).swift", contents: modelsGeneration.emit(model: model)))
    }
    // The date-time wrapper, the calendar day and the base64 wrapper, each once, when a model,
    // a type nested in a namespace, or an operation's parameter or body uses it.
    func isUsed(_ model: (ModelDecl) -> Bool, _ operation: (NamespaceDecl) -> Bool) -> Bool {
      models.contains(where: model)
        || namespaces.contains { operation($0) || $0.scope.decls.contains(where: model) }
    }
    if isUsed(\.usesDateTime, \.usesDateTime) {
      modelFiles.append(
        OpenAPIGenerator.File(
          path: Self.dateSupportPath, contents: modelsGeneration.emitDateSupport()))
    }
    if isUsed(\.usesCalendarDay, \.usesCalendarDay) {
      modelFiles.append(
        OpenAPIGenerator.File(
          path: Self.calendarDaySupportPath, contents: modelsGeneration.emitCalendarDaySupport()))
    }
    if isUsed({ $0.uses(.base64) }, \.usesBase64) {
      modelFiles.append(
        OpenAPIGenerator.File(
          path: Self.base64SupportPath, contents: modelsGeneration.emitBase64Support()))
    }
    if options.modelsModule == nil { files += modelFiles }
    let sorted = warnings.sorted { ($0.pointer, $0.message) < ($1.pointer, $1.message) }
    // Stubs, for a test target: one file per namespace.
    let stubs = namespaces.filter { options.stubs != nil && !$0.operations.isEmpty }.map {
      OpenAPIGenerator.File(path: $0.name + "+Stubs.swift", contents: emitStubs(namespace: $0))
    }
    return OpenAPIGenerator.Output(
      files: files, warnings: sorted, stubs: stubs,
      models: options.modelsModule == nil ? [] : modelFiles)
  }

  mutating func warn(_ unsupported: Unsupported, _ consequence: String) {
    warnings.append(
      OpenAPIGenerator.Warning(
        pointer: unsupported.pointer, message: unsupported.message + "; " + consequence))
  }

  static func schemaPointer(_ key: String) -> String {
    JSONPointer.appending(
      key,
      to: JSONPointer.appending("schemas", to: JSONPointer.appending("components", to: "#")))
  }

  /// The model of a schema of `components/schemas`, classified on first use: an object's
  /// properties are left for `run()` to add.
  mutating func ensureModel(_ key: String) -> ModelState {
    if let state = modelStates[key] { return state }
    guard let schema = schemas[key], let name = modelNames[key] else { return .skipped }
    modelStates[key] = .inProgress
    let pointer = Self.schemaPointer(key)
    do {
      let decl = try topLevelModel(name: name, schema: schema, pointer: pointer)
      modelStates[key] = .done(decl, nullable: Self.isNullable(schema))
    } catch {
      warn(error, "the schema is skipped")
      modelStates[key] = .skipped
    }
    return modelStates[key]!
  }

  /// Leaves out each property through which a struct would contain itself, directly or through
  /// other structs (never through an array or a dictionary).
  mutating func breakRecursion(in models: inout [ModelDecl]) {
    var index: [String: Int] = [:]
    var aliases: [String: TypeRef] = [:]
    for (position, model) in models.enumerated() {
      switch model.shape {
      case .object: index[model.name] = position
      case .alias(let type): aliases[model.name] = type
      case .stringEnum, .choice: break
      }
    }
    func target(_ type: TypeRef) -> Int? {
      var type = type
      for _ in 0..<8 {
        guard case .named(let name, _) = type else { return nil }
        if let position = index[name] { return position }
        guard let aliased = aliases[name] else { return nil }
        type = aliased
      }
      return nil
    }
    func properties(_ model: ModelDecl) -> [PropertyDecl] {
      var all: [PropertyDecl] = []
      if case .object(let own) = model.shape { all = own }
      for nested in model.nested { all += properties(nested) }
      return all
    }
    let edges = models.map { properties($0).compactMap { target($0.type) } }
    let component = StronglyConnected.components(edges: edges)
    for position in models.indices {
      var pruned: [Unsupported] = []
      let modelName = models[position].name
      models[position].removeProperties { property in
        guard let other = target(property.type), component[other] == component[position] else {
          return false
        }
        pruned.append(
          Unsupported(
            pointer: property.pointer,
            message: "\(modelName) would contain itself through \(property.key), "
              + "which is not an array"))
        return true
      }
      for unsupported in pruned { warn(unsupported, "the property is left out") }
    }
  }
}

extension ModelDecl {
  mutating func removeProperties(where shouldRemove: (PropertyDecl) -> Bool) {
    if case .object(var properties) = shape {
      properties.removeAll(where: shouldRemove)
      shape = .object(properties)
    }
    for position in nested.indices {
      nested[position].removeProperties(where: shouldRemove)
    }
  }
}

/// Tarjan's strongly connected components, iterative so that deep graphs need no deep stack.
enum StronglyConnected {
  /// The component of each node; two nodes on one cycle share a component.
  static func components(edges: [[Int]]) -> [Int] {
    let count = edges.count
    var order = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var component = [Int](repeating: -1, count: count)
    var stack: [Int] = []
    var counter = 0
    var components = 0
    for start in 0..<count where order[start] == -1 {
      var work: [(node: Int, edge: Int)] = [(start, 0)]
      order[start] = counter
      low[start] = counter
      counter += 1
      stack.append(start)
      onStack[start] = true
      while let (node, edge) = work.last {
        if edge < edges[node].count {
          work[work.count - 1].edge += 1
          let next = edges[node][edge]
          if order[next] == -1 {
            order[next] = counter
            low[next] = counter
            counter += 1
            stack.append(next)
            onStack[next] = true
            work.append((next, 0))
          } else if onStack[next] {
            low[node] = min(low[node], order[next])
          }
          continue
        }
        work.removeLast()
        if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
        if low[node] == order[node] {
          while let member = stack.popLast() {
            onStack[member] = false
            component[member] = components
            if member == node { break }
          }
          components += 1
        }
      }
    }
    return component
  }
}
