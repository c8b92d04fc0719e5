// The version of presentd and presentctl, which are built and shipped together: `hello`,
// `rpc.discover`, `--version` of both, and the Debian package (packaging/debian/build-deb.sh
// reads it from this line).

public let presentdVersion = "0.1.0"
