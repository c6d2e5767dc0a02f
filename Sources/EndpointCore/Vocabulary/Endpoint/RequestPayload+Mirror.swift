extension RequestPayload: CustomReflectable {
  /// The media type and the body as ``HTTPBody/customMirror`` shows it, its secrets hidden.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "contentType": contentType as Any,
        "body": body?.shownContent(contentType: contentType) as Any,
      ],
      displayStyle: .struct)
  }
}
