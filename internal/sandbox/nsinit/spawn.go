package nsinit

// SpawnerArg0 is the name the per-session spawner runs under; with SpecEnv
// set, it is how the package recognises that the process was started as
// the spawner. It inherits one end of a SOCK_SEQPACKET socket pair as
// descriptor SpawnerFD and talks [Msg]s on it.
const SpawnerArg0 = "hands-sandbox-spawner"

// SpawnerFD is the spawner's descriptor of its socket to the server.
const SpawnerFD = 3

// MaxMsg bounds one message on the spawner's socket. A larger one (a
// command with a long argv or environment: the kernel's bound, ARG_MAX,
// is a quarter of the stack limit, 2 MiB by default) goes in a memfd sent
// with an envelope whose InFD is set.
const MaxMsg = 64 << 10

// MaxBody bounds a message sent in a memfd.
const MaxBody = 256 << 20

// Operations of a Msg.
const (
	// OpReady (spawner to server) says the sandbox is set up; Err, if
	// set, says why it could not be, and the spawner exits.
	OpReady = "ready"
	// OpSpawn (server to spawner) starts Path with Args, Env in Dir; the
	// descriptors sent with the message (SCM_RIGHTS) become the
	// command's descriptors FDs, in order; its standard input is
	// /dev/null unless 0 is among them. Masks are paths to cover (as
	// Spec.Masks) before it starts, if they are not already.
	OpSpawn = "spawn"
	// OpStarted (spawner to server) answers OpSpawn: the command's PID in
	// the session's PID namespace (it leads a process group of its own
	// there), or Err.
	OpStarted = "started"
	// OpExited (spawner to server): the command's shell has exited, with
	// the wait status Status; the spawner has reaped it. Done says no
	// process of the command is left and the spawner has forgotten it:
	// there is nothing to signal or release.
	OpExited = "exited"
	// OpSignal (server to spawner) sends Signal to every process of the
	// command, whatever process group or session it is in.
	OpSignal = "signal"
	// OpRelease (server to spawner) kills every process of the command
	// that is left (SIGKILL, until none is) and forgets the command;
	// OpReleased answers once none is left.
	OpRelease  = "release"
	OpReleased = "released"
	// OpGo (server to spawner) lets a command started with a Gate (a
	// warm shell, which waits for a line on it) go on: the spawner covers
	// Masks, as OpSpawn does, then writes a line to the gate and closes
	// it. If a mask cannot be made, it closes the gate without a line (the
	// shell ends, running nothing) and answers OpMasked with Err; there is
	// no answer otherwise.
	OpGo     = "go"
	OpMasked = "masked"
)

// Msg is one message on the spawner's socket, as JSON.
type Msg struct {
	Op     string   `json:"op"`
	ID     uint64   `json:"id,omitempty"`
	Path   string   `json:"path,omitempty"`
	Args   []string `json:"args,omitempty"`
	Env    []string `json:"env,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	FDs    []int    `json:"fds,omitempty"`
	Masks  []string `json:"masks,omitempty"`
	PID    int      `json:"pid,omitempty"`
	Status uint32   `json:"status,omitempty"`
	Signal int      `json:"signal,omitempty"`
	Err    string   `json:"err,omitempty"`
	Done   bool     `json:"done,omitempty"`
	// Gate, with OpSpawn, is the command's descriptor on which the
	// spawner gives it the read end of a pipe whose write end it keeps,
	// for OpGo.
	Gate int `json:"gate,omitempty"`
	// InFD says the message is an envelope: the real one is the whole
	// content of the first descriptor sent with it (a memfd), the rest of
	// the descriptors its own.
	InFD bool `json:"in_fd,omitempty"`
}
