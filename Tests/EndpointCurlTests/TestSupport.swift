// The loopback test servers (`TestServers`) for every file of this target.
@_exported import EndpointTestSupport
