package nsinit

// SpecEnv carries the spawner's Spec, as JSON; the spawner removes it from
// its environment.
const SpecEnv = "HANDS_SANDBOX_SPEC"

// SetupFailed is the spawner's exit status when the sandbox could not be
// set up: nothing ran (as a shell's "cannot execute").
const SetupFailed = 126

// Spec is what the spawner is told to set up.
type Spec struct {
	// Writable are the trees that stay writable; everything else is
	// mounted read-only.
	Writable []string `json:"writable,omitempty"`
	// Masks are covered by an empty read-only file or directory.
	Masks []string `json:"masks,omitempty"`
	// Landlock, if set, is applied to the thread the commands start from.
	Landlock *Ruleset `json:"landlock,omitempty"`
	// NetNS says the spawner is in a new network namespace, whose
	// loopback it brings up; with Proxy, it forwards 127.0.0.1:ProxyPort
	// there to that UNIX socket.
	NetNS     bool   `json:"netns,omitempty"`
	Proxy     string `json:"proxy,omitempty"`
	ProxyPort int    `json:"proxy_port,omitempty"`
}

// FileAccess are the Landlock rights a rule on a file (not a directory) may
// carry: execute, write, read, truncate, and connecting to it as a UNIX
// socket (ABI 9).
const FileAccess uint64 = 1<<0 | 1<<1 | 1<<2 | 1<<14 | 1<<16

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
