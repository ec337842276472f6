package nsinit

// HelperArg0 is the name the helper runs under; with SpecEnv set, it is how
// the package recognises that the process was started as the helper.
const HelperArg0 = "hands-sandbox-helper"

// SpecEnv carries the helper's Spec, as JSON; the helper removes it from the
// command's environment.
const SpecEnv = "HANDS_SANDBOX_SPEC"

// ProbeOK is what the helper prints when Spec.Probe is set and the whole
// setup worked.
const ProbeOK = "hands-sandbox-ok"

// SetupFailed is the helper's exit status when the sandbox could not be
// set up: the command did not run (as a shell's "cannot execute").
const SetupFailed = 126

// Spec is what the helper is told to set up.
type Spec struct {
	// Writable are the trees that stay writable; everything else is
	// mounted read-only.
	Writable []string `json:"writable,omitempty"`
	// Masks are covered by an empty read-only file or directory.
	Masks []string `json:"masks,omitempty"`
	// Landlock, if set, is applied after the mounts.
	Landlock *Ruleset `json:"landlock,omitempty"`
	// NetNS says the helper is in a new network namespace, whose loopback
	// it brings up; with Proxy, it forwards 127.0.0.1:ProxyPort there to
	// that UNIX socket.
	NetNS     bool   `json:"netns,omitempty"`
	Proxy     string `json:"proxy,omitempty"`
	ProxyPort int    `json:"proxy_port,omitempty"`
	// GraceMS is how long what the command leaves behind has after
	// SIGTERM once it has exited.
	GraceMS int64 `json:"grace_ms,omitempty"`
	// Probe sets everything up, prints ProbeOK and exits, running nothing.
	Probe bool `json:"probe,omitempty"`
	// StatusFD, if not 0, is a descriptor the helper inherited on which it
	// writes StatusReady once the sandbox is set up and the command about
	// to start (signals are caught by then; before, as PID 1 of its
	// namespace, it could lose them), then the command's PID in its
	// namespace, its process group there (StatusSize bytes,
	// little-endian), once started, then the command's wait
	// status (StatusSize bytes, little-endian) as soon as the command has
	// ended: the helper cannot die of the signal that ended the command,
	// so its own status cannot say which signal it was.
	StatusFD int `json:"status_fd,omitempty"`
}

// StatusReady is the byte the helper writes on Spec.StatusFD once it
// catches the signals it passes on.
const StatusReady = 'R'

// StatusSize is the size of the wait status written on Spec.StatusFD.
const StatusSize = 4

// FileAccess are the Landlock rights a rule on a file (not a directory) may
// carry: execute, write, read, truncate.
const FileAccess uint64 = 1<<0 | 1<<1 | 1<<2 | 1<<14

// Ruleset is a Landlock ruleset worked out ahead, to be applied by
// Restrict, possibly in another process.
type Ruleset struct {
	// ABI is the kernel's Landlock ABI version.
	ABI int `json:"abi"`
	// Handled are the file system rights the ruleset handles; Scoped its
	// scopes (signals, abstract UNIX sockets).
	Handled uint64 `json:"handled"`
	Scoped  uint64 `json:"scoped,omitempty"`
	// Rules grant rights beneath paths.
	Rules []Rule `json:"rules"`
}

// Rule grants Access beneath Path.
type Rule struct {
	Path   string `json:"path"`
	Access uint64 `json:"access"`
}
