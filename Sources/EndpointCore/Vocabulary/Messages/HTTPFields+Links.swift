extension HTTPFields {
  /// The targets of the links in the `Link` fields (RFC 8288) whose `rel` names `relation`
  /// (ignoring case, among several space-separated relation types), in order and as written:
  /// resolve a relative one against the response's URL.
  ///
  /// Commas and semicolons inside a quoted string or inside `<…>` do not split links, parameters
  /// may be quoted or not, and a malformed link is skipped.
  ///
  /// ```swift
  /// let fields: HTTPFields = [
  ///   "Link": #"<https://api.x/items?p=2>; rel="next", </items?p=9>; rel=last"#
  /// ]
  /// fields.linkTargets(relation: "next")  // ["https://api.x/items?p=2"]
  /// ```
  ///
  /// - Parameter relation: the relation type, such as `next`, `prev` or `last`.
  public func linkTargets(relation: String) -> [String] {
    WebLink.parse(values(for: "Link")).filter { $0.hasRelation(relation) }.map(\.target)
  }
}
