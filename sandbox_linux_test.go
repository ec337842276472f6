//go:build linux

package hands_test

import (
	"context"
	"encoding/json"
	"github.com/hands-dev/hands/internal/testproc"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/internal/sandbox/netfilter"
	"github.com/hands-dev/hands/tool"
)

// sandboxed returns a session of a runtime over a new root whose commands
// run in the namespaces, or skips when this kernel cannot make them.
func sandboxed(t *testing.T, opts hands.Options) (*hands.Runtime, *hands.Session, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts.Roots = []string{root}
	opts.Sandbox = hands.SandboxNamespaces
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	if err := exec.Command("unshare", "-Urmpf", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("no unprivileged user namespaces here (%v)", err)
	}
	if w := rt.SandboxWarnings(); len(w) > 0 && strings.Contains(strings.Join(w, " "), "namespaces") {
		t.Fatalf("namespaces work here but the sandbox says: %q", w)
	}
	s, err := rt.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return rt, s, root
}

func bashCall(t *testing.T, s *hands.Session, command string) (string, bool) {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"command": command, "timeout": 300000})
	res := s.Call(context.Background(), tool.Call{Name: "bash", Input: in})
	return res.TextOf(), res.IsError
}

// Git, Go, Node, Python and the C and Rust compilers work inside the
// sandbox, each that is installed.
func TestSandboxToolchains(t *testing.T) {
	// The go build cache is shared, as a user would with --allow-write,
	// so that the stdlib is not compiled again.
	var opts hands.Options
	if gocache, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if dir := strings.TrimSpace(string(gocache)); filepath.IsAbs(dir) {
			if err := os.MkdirAll(dir, 0o755); err == nil {
				opts.Writable = []string{dir}
				opts.Env = map[string]string{"GOCACHE": dir}
			}
		}
	}
	_, s, root := sandboxed(t, opts)
	cases := []struct{ tool, command, want string }{
		{"git", "git init -q repo && cd repo && echo hi > f && git add f && git -c user.name=t -c user.email=t@t commit -qm first && git log --format=%s && git status --short | wc -l", "first\n0"},
		{"go", "mkdir -p gomod && cd gomod && printf 'package main\\nimport \"fmt\"\\nfunc main() { fmt.Println(\"go-ok\") }\\n' > main.go && go mod init example.com/m >/dev/null 2>&1 && go run .", "go-ok"},
		{"node", "node -e 'require(\"fs\").writeFileSync(\"n.txt\", \"node-ok\"); console.log(require(\"fs\").readFileSync(\"n.txt\",\"utf8\"))'", "node-ok"},
		{"python3", "python3 -c 'import tempfile,multiprocessing,sqlite3; tempfile.mkstemp(); print(\"python-ok\")'", "python-ok"},
		{"gcc", "printf '#include <stdio.h>\\nint main(void){puts(\"c-ok\");return 0;}\\n' > c.c && gcc -o c c.c && ./c", "c-ok"},
		{"rustc", "printf 'fn main(){println!(\"rust-ok\");}\\n' > r.rs && rustc -o r r.rs && ./r", "rust-ok"},
		{"make", "printf 'all:\\n\\t@echo make-ok\\n' > Makefile && make", "make-ok"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Skipf("%s is not installed here", c.tool)
			}
			out, isErr := bashCall(t, s, "cd "+root+" && "+c.command)
			if isErr || !strings.Contains(out, c.want) {
				t.Errorf("%s inside the sandbox: error %v, output:\n%s", c.tool, isErr, out)
			}
		})
	}
}

// With --sandbox strict, a machine that lacks a layer runs no command; the
// default runs them with what there is and says what is missing.
func TestSandboxStrictRefusesWhatItCannotEnforce(t *testing.T) {
	root := t.TempDir()
	opts := hands.Options{Roots: []string{root}, Sandbox: hands.SandboxStrict, SandboxHelper: filepath.Join(root, "no-such-helper")}
	rt, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, _ := rt.NewSession()
	defer s.Close()
	out, isErr := bashCall(t, s, "echo ran > "+filepath.Join(root, "ran"))
	if !isErr || !strings.Contains(out, "strict") || !strings.Contains(out, "namespaces") {
		t.Errorf("strict ran a command it could not confine: error %v, %q", isErr, out)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Error("the command ran")
	}
	if c := rt.Confinement(); !strings.Contains(c, "REFUSED") || !strings.Contains(c, "command namespaces: NOT enforced") || !strings.Contains(c, "not enforced: read-only system, masked secrets") {
		t.Errorf("doctor does not say commands are refused:\n%s", rt.Confinement())
	}

	opts.Sandbox = hands.SandboxNamespaces
	auto, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer auto.Close()
	if w := auto.SandboxWarnings(); len(w) == 0 || !strings.Contains(w[0], "namespaces") {
		t.Errorf("the default does not say namespaces are missing: %q", w)
	}
	as, _ := auto.NewSession()
	defer as.Close()
	if out, isErr := bashCall(t, as, "echo fallback"); isErr || !strings.Contains(out, "fallback") {
		t.Errorf("the default did not run the command with Landlock alone: %q", out)
	}

	opts.Network = "off"
	off, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	os2, _ := off.NewSession()
	defer os2.Close()
	if out, isErr := bashCall(t, os2, "echo > "+filepath.Join(root, "reached")); isErr || !strings.Contains(out, "exit code: 0") {
		t.Errorf("--network off without namespaces did not run the command with the seccomp filter: %q", out)
	}
	if _, err := os.Stat(filepath.Join(root, "reached")); err != nil {
		t.Error("the command did not run")
	}
	if c := off.Confinement(); !strings.Contains(c, "network: off through a seccomp filter") ||
		!strings.Contains(c, "not enforced: UNIX sockets outside the roots stay reachable by path") {
		t.Errorf("doctor does not say how the network is off, and that UNIX sockets stay reachable:\n%s", c)
	}

	// --network allow= needs the namespaces' proxy: without them,
	// commands do not run.
	opts.Network = "allow=example.com"
	allow, err := hands.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer allow.Close()
	as2, _ := allow.NewSession()
	defer as2.Close()
	if out, isErr := bashCall(t, as2, "echo > "+filepath.Join(root, "reached-allow")); !isErr || !strings.Contains(out, "cannot be enforced without namespaces") {
		t.Errorf("--network allow= without namespaces ran the command: %q", out)
	}
	if _, err := os.Stat(filepath.Join(root, "reached-allow")); err == nil {
		t.Error("the command ran")
	}
}

// Where user namespaces are unavailable (forced here by a helper that does
// not exist), --network off keeps commands off the network with the
// seccomp filter: no TCP connection, loopback included, and the listener
// sees none; UNIX sockets still work.
func TestSandboxNetworkOffWithoutNamespaces(t *testing.T) {
	if err := netfilter.Available(); err != nil {
		t.Skipf("no seccomp here: %v", err)
	}
	root := t.TempDir()
	rt, err := hands.New(hands.Options{Roots: []string{root}, Network: "off", SandboxHelper: filepath.Join(root, "no-such-helper")})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if w := rt.SandboxWarnings(); len(w) == 0 || !strings.Contains(w[0], "namespaces") {
		t.Fatalf("the namespaces were not forced off: %q", w)
	}
	s, _ := rt.NewSession()
	defer s.Close()
	l, accepted := testproc.ListenTCP(t)
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	out, isErr := bashCall(t, s, "echo hi > /dev/tcp/127.0.0.1/"+port+" && echo REACHED")
	if strings.Contains(out, "REACHED") || !strings.Contains(out, "Operation not permitted") {
		t.Errorf("a command reached a TCP listener with --network off (error %v):\n%s", isErr, out)
	}
	if py, err := exec.LookPath("python3"); err == nil {
		out, _ := bashCall(t, s, py+` -c 'import socket; a, b = socket.socketpair(socket.AF_UNIX); a.send(b"ok"); print("unix-" + b.recv(2).decode())'`)
		if !strings.Contains(out, "unix-ok") {
			t.Errorf("UNIX sockets do not work under the filter:\n%s", out)
		}
	}
	c, err := net.DialTimeout("tcp", l.Addr().String(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if first := <-accepted; first != c.LocalAddr().String() {
		t.Errorf("the listener accepted %s before the test's own connection: the command's", first)
	}
}

func TestSandboxOptionsChecked(t *testing.T) {
	for _, o := range []hands.Options{
		{Sandbox: "lax"}, {Network: "sometimes"}, {Network: "allow="}, {DenyRead: []string{"relative/path"}},
		{UnixSockets: []string{"docker.sock"}}, {UnixSockets: []string{""}},
	} {
		o.Roots = []string{t.TempDir()}
		if rt, err := hands.New(o); err == nil {
			rt.Close()
			t.Errorf("New(%+v) accepted", o)
		}
	}
}

// Every process of a command dies with it: a setsid background process,
// a background job's setsid grandchild when the session closes.
func TestSandboxKillsEverything(t *testing.T) {
	_, s, root := sandboxed(t, hands.Options{})
	mark := "8123.4567"
	out, isErr := bashCall(t, s, "setsid sleep "+mark+" & setsid -f sleep "+mark+"; echo started")
	if isErr || !strings.Contains(out, "started") {
		t.Fatalf("%q", out)
	}
	if left := testproc.PIDsOf(mark); len(left) > 0 {
		t.Errorf("setsid processes outlived their command: %v", left)
	}
	in, _ := json.Marshal(map[string]any{"command": "setsid -f sleep " + mark + "; echo > " + root + "/job-started; sleep " + mark, "run_in_background": true})
	if res := s.Call(context.Background(), tool.Call{Name: "bash", Input: in}); res.IsError {
		t.Fatal(res.TextOf())
	}
	if out, _ := bashCall(t, s, "while [ ! -e "+root+"/job-started ]; do sleep 0.05; done; echo seen"); !strings.Contains(out, "seen") {
		t.Fatal(out)
	}
	if len(testproc.PIDsOf(mark)) == 0 {
		t.Fatal("the background job is not running")
	}
	s.Close()
	if left := testproc.PIDsOf(mark); len(left) > 0 {
		t.Errorf("a background job's setsid grandchild outlived the session: %v", left)
	}
}

// pauseBetweenCalls is the pause of BenchmarkBashPerCall's -paused cases:
// far shorter than a model's turn.
const pauseBetweenCalls = 20 * time.Millisecond

// cpuTime is the CPU time this process and its reaped children have used.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// BenchmarkBashPerCall measures one bash `echo hi` call through the
// pipeline with each sandbox layer, and a bare `bash -c` spawn, in one
// run: go test -run '^$' -bench BashPerCall -benchtime 200x . The CPU
// time per call includes the session's set-up and close, spread over the
// calls. The calls follow one another at once, so each waits for part of
// the warm shell the last one left to start; a -paused case leaves
// pauseBetweenCalls between calls, as a model thinking does, and times
// the calls alone (its CPU time still counts everything); a -cold case
// has no warm shells (NoWarmShell).
func BenchmarkBashPerCall(b *testing.B) {
	for _, c := range []struct {
		name  string
		opts  hands.Options
		pause bool
	}{
		{"namespaces", hands.Options{Sandbox: hands.SandboxNamespaces}, false},
		{"namespaces-paused", hands.Options{Sandbox: hands.SandboxNamespaces}, true},
		{"namespaces-cold", hands.Options{Sandbox: hands.SandboxNamespaces, NoWarmShell: true}, false},
		{"namespaces-cold-paused", hands.Options{Sandbox: hands.SandboxNamespaces, NoWarmShell: true}, true},
		{"namespaces-network-off", hands.Options{Sandbox: hands.SandboxNamespaces, Network: "off"}, false},
		{"namespaces-unix-socket-all", hands.Options{Sandbox: hands.SandboxNamespaces, UnixSockets: []string{hands.UnixSocketsAll}}, false},
		{"landlock-only", hands.Options{Sandbox: hands.SandboxLandlock}, false},
		{"landlock-only-paused", hands.Options{Sandbox: hands.SandboxLandlock}, true},
		{"unconfined", hands.Options{NoSandbox: true}, false},
		{"unconfined-paused", hands.Options{NoSandbox: true}, true},
		{"unconfined-cold", hands.Options{NoSandbox: true, NoWarmShell: true}, false},
		{"unconfined-cold-paused", hands.Options{NoSandbox: true, NoWarmShell: true}, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.opts.Roots = []string{b.TempDir()}
			rt, err := hands.New(c.opts)
			if err != nil {
				b.Fatal(err)
			}
			defer rt.Close()
			cpu := cpuTime()
			s, _ := rt.NewSession()
			in, _ := json.Marshal(map[string]any{"command": "echo hi"})
			call := tool.Call{Name: "bash", Input: in}
			if res := s.Call(context.Background(), call); res.IsError || !strings.Contains(res.TextOf(), "hi") {
				b.Fatal(res.TextOf())
			}
			for b.Loop() {
				if c.pause {
					b.StopTimer()
					time.Sleep(pauseBetweenCalls)
					b.StartTimer()
				}
				s.Call(context.Background(), call)
			}
			// The CPU time counts the session's start and end too: a
			// process (the spawner) and what it reaped are counted
			// only once it has been reaped, at the session's close.
			s.Close()
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
	b.Run("bare-bash-c", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			if err := exec.Command("bash", "-c", "echo hi").Run(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
	})
}
