//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// attack is one case of testdata/attacks.txt.
type attack struct {
	name, mode, command string
	want                *regexp.Regexp // nil: only the implicit checks
	line                int
}

// Shorthands for the refusal column.
var refusals = map[string]string{
	"EROFS": `(?i)read-only file system|operation not permitted|permission denied|EROFS|EPERM|EACCES`,
	"NONET": `(?i)refused|unreachable|failed|could not|couldn't|timed out|not known|temporary failure|errno|error|denied`,
	"GONE":  `(?i)no such file`,
	// A UNIX socket that cannot be reached: masked by an empty file (no
	// write permission) or an empty directory.
	"NOSOCK": `(?i)permission denied|no such file|connection refused|ECONNREFUSED|EACCES|ENOENT|couldn't connect|failed to connect|could not open|error connecting`,
}

func loadAttacks(t *testing.T) []attack {
	t.Helper()
	f, err := os.Open("testdata/attacks.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []attack
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " | ", 4)
		if len(parts) != 4 {
			t.Fatalf("attacks.txt:%d: want name | mode | refusal | command", n)
		}
		a := attack{name: parts[0], mode: parts[1], command: parts[3], line: n}
		if w := parts[2]; w != "-" {
			var alts []string
			for alt := range strings.SplitSeq(w, "|") {
				if r, ok := refusals[alt]; ok {
					alt = r
				}
				alts = append(alts, alt)
			}
			a.want = regexp.MustCompile(strings.Join(alts, "|"))
		}
		out = append(out, a)
	}
	return out
}

// corpusWorld is the machine the attacks try to reach: a root with denied
// files, a home with the usual secrets, a --deny-read tree, a tree outside,
// an HTTP server on the host's loopback, HTTP servers on UNIX sockets
// outside the roots (answering a secret) and one in the root.
type corpusWorld struct {
	base, root, out, home, deny string
	port                        int
	// run is a directory under /run, varRun the same through /var/run,
	// tmpSock a socket at the top of /tmp: where the system's sockets
	// live ("" where the tests cannot make them). witness holds one log
	// per socket listener outside the roots, a line per connection it
	// accepted.
	run, varRun, tmpSock, witness string
	// hands and cred run the server: the tests' binary as the tests'
	// user, or a copy of it as an ordinary user (asOrdinaryUser).
	hands string
	cred  *syscall.Credential
	mark  int // told apart the processes of two worlds' commands
}

const secret = "s3cr3t"

// newCorpusWorld builds the world for a server run by the tests' user, or,
// with ordinary, by an ordinary user (nobody, when the tests run as root)
// who owns the whole world: so that what refuses an attack is the sandbox,
// not the world's permissions.
func newCorpusWorld(t *testing.T, ordinary bool) *corpusWorld {
	t.Helper()
	dir := t.TempDir()
	w := &corpusWorld{hands: binary, mark: 7}
	if ordinary {
		tmpl := asOrdinaryUser(t, binary)
		w.hands, w.mark = tmpl.Path, 8
		if tmpl.SysProcAttr != nil {
			w.cred = tmpl.SysProcAttr.Credential
		}
		// t.TempDir is root's alone; this one nobody can reach.
		var err error
		if dir, err = os.MkdirTemp("", "hands-corpus-user-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		os.Chmod(dir, 0o755)
	}
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.base = base
	w.root, w.out, w.home, w.deny = filepath.Join(base, "root"), filepath.Join(base, "outside"), filepath.Join(base, "home"), filepath.Join(base, "private")
	files := map[string]string{
		w.root + "/.env":                 secret + "-dotenv\n",
		w.root + "/sub/.env":             secret + "-subenv\n",
		w.root + "/sub/.keep":            "keep\n",
		w.root + "/README":               "a project\n",
		w.out + "/file":                  "outside\n",
		w.out + "/dir/inner":             "inner\n",
		w.deny + "/private":              secret + "-denyread\n",
		w.deny + "/deeper/x":             secret + "-denyread-deeper\n",
		w.home + "/.bashrc":              "# bashrc\n",
		w.home + "/notes.txt":            "public notes\n",
		w.out + "/bin/hands-corpus-hook": "#!/bin/sh\ncat > /dev/null\nexit 0\n",
	}
	for _, p := range []string{".ssh/id_rsa", ".ssh/config", ".aws/credentials", ".aws/config",
		".gnupg/private-keys-v1.d/key", ".config/gcloud/credentials.db", ".docker/config.json",
		".netrc", ".kube/config", ".git-credentials", ".config/gh/hosts.yml", ".npmrc", ".pypirc"} {
		files[w.home+"/"+p] = secret + "-" + strings.ReplaceAll(p, "/", "_") + "\n"
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{w.out + "/empty", w.root + "/mnt", w.out + "/xdg"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	unix.Setxattr(w.out+"/file", "user.keep", []byte("1"), 0) // where the file system has xattrs
	// UNIX sockets outside the roots: one a listing of /proc/net/unix finds
	// anywhere, an ssh-agent's, a runtime directory's bus, Docker Desktop's,
	// a datagram one. Each answers a secret, or logs what reaches it to a
	// file outside.
	w.witness = filepath.Join(base, "witness")
	if err := os.Mkdir(w.witness, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{w.out + "/xdg/bus", w.home + "/.docker/run/docker.sock", w.home + "/plain.sock"} {
		serveUnix(t, p, secret+"-socket\n", w.witness)
	}
	serveUnix(t, w.root+"/project.sock", "root-socket-ok\n", "")
	// The sockets --unix-socket may leave reachable answer what they are:
	// an ssh-agent's (SSH_AUTH_SOCK), one in the runtime directory, a
	// Docker socket under /run, one at the top of /tmp.
	serveUnix(t, w.out+"/ssh-agent/agent.sock", "reached-ssh-agent\n", w.witness)
	serveUnix(t, w.out+"/xdg/reach.sock", "reached-xdg\n", w.witness)
	w.systemSockets(t)
	serveUnixgram(t, w.out+"/dgram.sock", w.out+"/dgram.log")
	if w.cred != nil {
		filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				os.Lchown(p, int(w.cred.Uid), int(w.cred.Gid))
			}
			return nil
		})
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(rw, "proxied-ok")
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	w.port = l.Addr().(*net.TCPAddr).Port
	return w
}

// serveUnix answers every HTTP request on a UNIX socket at p with reply
// and, unless witness is empty, logs each connection it accepts to a file
// there.
func serveUnix(t *testing.T, p, reply, witness string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { fmt.Fprint(rw, reply) })}
	if witness != "" {
		log := filepath.Join(witness, strings.NewReplacer("/", "_", " ", "_").Replace(p))
		srv.ConnState = func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				if f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
					fmt.Fprintln(f, "accepted")
					f.Close()
				}
			}
		}
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
}

// serveUnixgram appends what reaches a datagram socket at p to the file
// log, which the snapshot sees.
func serveUnixgram(t *testing.T, p, log string) {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: p, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		buf := make([]byte, 4096)
		for {
			n, _, err := c.ReadFrom(buf)
			if err != nil {
				return
			}
			f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err == nil {
				f.Write(buf[:n])
				f.Close()
			}
		}
	}()
}

// snapshot records everything about the trees a command must not change.
func (w *corpusWorld) snapshot(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, top := range []string{w.out, w.home, w.deny, w.root + "/.env", w.root + "/sub/.env"} {
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(&b, "%s: %v\n", p, err)
				return nil
			}
			var st unix.Stat_t
			if err := unix.Lstat(p, &st); err != nil {
				fmt.Fprintf(&b, "%s: %v\n", p, err)
				return nil
			}
			fmt.Fprintf(&b, "%s mode=%o uid=%d gid=%d size=%d mtime=%d.%d nlink=%d", p, st.Mode, st.Uid, st.Gid, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Nlink)
			if d.Type().IsRegular() {
				data, _ := os.ReadFile(p)
				fmt.Fprintf(&b, " sha=%x", sha256.Sum256(data))
			}
			buf := make([]byte, 1024)
			if n, err := unix.Llistxattr(p, buf); err == nil {
				fmt.Fprintf(&b, " xattrs=%q", buf[:n])
			}
			b.WriteString("\n")
			return nil
		})
	}
	for _, stray := range []string{"/etc/hands-pwned", "/usr/local/bin/hands-pwned"} {
		if _, err := os.Lstat(stray); err == nil {
			fmt.Fprintf(&b, "stray %s\n", stray)
		}
	}
	for _, pat := range []string{"/tmp/hands-pwned-*", "/var/tmp/hands-pwned-*", "/dev/shm/hands-*"} {
		m, _ := filepath.Glob(pat)
		for _, p := range m {
			fmt.Fprintf(&b, "stray %s\n", p)
		}
	}
	return b.String()
}

// corpusServer is one `hands serve` over stdio with a go-sdk client.
type corpusServer struct {
	cs  *mcp.ClientSession
	cmd *exec.Cmd
}

func startCorpusServer(t *testing.T, w *corpusWorld, mode string) *corpusServer {
	t.Helper()
	args := []string{"serve", "--sandbox", "namespaces", "--root", w.root, "--deny", ".env", "--deny-read", w.deny, "--allow-hosts", secret + "-cmdline.example"}
	switch mode {
	case "off":
		args = append(args, "--network", "off")
	case "allow":
		args = append(args, "--network", "allow=localhost")
	case "sockets":
		// Each reachable socket named: a file, a directory with a
		// trailing slash.
		args = append(args, "--unix-socket", w.out+"/xdg/reach.sock", "--unix-socket", w.out+"/ssh-agent/")
		for _, p := range []string{w.run, w.tmpSock} {
			if p != "" {
				args = append(args, "--unix-socket", p)
			}
		}
	case "allsockets":
		args = append(args, "--unix-socket", "all")
	case "hook":
		// A hook named by a bare name, found on PATH when the server starts.
		config := filepath.Join(w.base, "hooks.json")
		os.WriteFile(config, []byte(`{"hooks":{"PostToolUse":[{"matcher":"bash","hooks":[{"type":"command","command":"hands-corpus-hook"}]}]}}`), 0o644)
		args = append(args, "--config", config)
	}
	cmd := exec.Command(w.hands, args...)
	if w.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: w.cred}
	}
	cmd.Env = append(os.Environ(), "PATH="+w.out+"/bin:"+os.Getenv("PATH"), "HOME="+w.home, "ANTHROPIC_API_KEY="+secret+"-env-anthropic",
		"GITHUB_TOKEN="+secret+"-env-github", "HANDS_HTTP_TOKEN="+secret+"-env-token", "AWS_SECRET_ACCESS_KEY="+secret+"-env-aws",
		"SSH_AUTH_SOCK="+w.out+"/ssh-agent/agent.sock", "XDG_RUNTIME_DIR="+w.out+"/xdg", "DBUS_SESSION_BUS_ADDRESS=unix:path="+w.out+"/xdg/bus",
		"DOCKER_HOST=unix://"+w.home+"/.docker/run/docker.sock")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "attack-corpus", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %s)", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return &corpusServer{cs: cs, cmd: cmd}
}

func (s *corpusServer) call(name string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), nil
}

func (s *corpusServer) bash(t *testing.T, command string) (string, error) {
	t.Helper()
	return s.call("bash", map[string]any{"command": command, "timeout": 30000})
}

var jobID = regexp.MustCompile(`job-[0-9]+`)

// background runs command as a background job and returns what bash said
// and, once it has ended, its output.
func (s *corpusServer) background(t *testing.T, command string) (string, error) {
	t.Helper()
	out, err := s.call("bash", map[string]any{"command": command, "run_in_background": true})
	if err != nil {
		return "", err
	}
	id := jobID.FindString(out)
	if id == "" {
		return "", fmt.Errorf("no job id in %q", out)
	}
	res, err := s.call("task_output", map[string]any{"task_id": id, "timeout": 30000})
	return out + "\n" + res, err
}

// processesWith returns the processes whose command line holds s.
func processesWith(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(s)) && !bytes.Contains(b, []byte("attack-corpus")) {
			out = append(out, e.Name()+": "+string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
		}
	}
	return out
}

// TestAttackCorpus runs every attack of testdata/attacks.txt through the
// real server over MCP, run by the tests' user. Each passes only when its
// refusal shows, no secret leaks, nothing outside changed, the server
// still answers and nothing the command started lives on.
func TestAttackCorpus(t *testing.T) {
	t.Parallel()
	runCorpus(t, false)
}

// TestAttackCorpusAsOrdinaryUser runs the corpus again with the server run
// by an ordinary user owning the whole world, when the tests run as root
// (for whom an exec keeps its capabilities: a sandbox that works for root
// alone once passed every test). Run by an ordinary user, TestAttackCorpus
// is that pass already.
func TestAttackCorpusAsOrdinaryUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skipf("the tests run as uid %d: TestAttackCorpus is the ordinary user's pass", os.Getuid())
	}
	t.Parallel()
	runCorpus(t, true)
}

func runCorpus(t *testing.T, ordinary bool) {
	attacks := loadAttacks(t)
	if len(attacks) < 150 {
		t.Fatalf("the corpus has %d cases; it must keep at least 150", len(attacks))
	}
	if err := exec.Command("unshare", "-Urmpf", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("this kernel does not let unprivileged users make namespaces (%v): the sandbox's second layer cannot run here", err)
	}
	w := newCorpusWorld(t, ordinary)
	servers := map[string]*corpusServer{}
	before := w.snapshot(t)
	for n, a := range attacks {
		mode, bg := strings.CutSuffix(a.mode, "+bg")
		s := servers[mode]
		if s == nil {
			s = startCorpusServer(t, w, mode)
			servers[mode] = s
		}
		mark := fmt.Sprintf("%d%03d.%d", 4000+os.Getpid()%1000, n, w.mark)
		cmd := strings.NewReplacer("{ROOT}", w.root, "{OUT}", w.out, "{HOME}", w.home, "{DENY}", w.deny,
			"{SPID}", strconv.Itoa(s.cmd.Process.Pid), "{PORT}", strconv.Itoa(w.port), "{MARK}", mark,
			"{RUN}", w.run, "{VARRUN}", w.varRun, "{TMPSOCK}", w.tmpSock).Replace(a.command)
		t.Run(a.name, func(t *testing.T) {
			if lacks := w.lacks(a.command); lacks != "" {
				t.Skipf("attacks.txt:%d: %s", a.line, lacks)
			}
			reached := w.reached(t)
			run := s.bash
			if bg {
				run = s.background
			}
			out, err := run(t, cmd)
			if err != nil {
				t.Fatalf("attacks.txt:%d: the call failed: %v", a.line, err)
			}
			if strings.Contains(out, secret) {
				t.Errorf("attacks.txt:%d: a secret leaked:\n%s", a.line, out)
			}
			if a.want != nil && !a.want.MatchString(out) {
				t.Errorf("attacks.txt:%d: the output does not show the refusal %q:\n%s", a.line, a.want, out)
			}
			if now := w.snapshot(t); now != before {
				t.Errorf("attacks.txt:%d: something outside changed:\n%s", a.line, diffLines(before, now))
				before = now
			}
			if now := w.reached(t); now != reached && !reachableIn[mode] {
				t.Errorf("attacks.txt:%d: a UNIX socket outside the roots accepted a connection:\n%s", a.line, diffLines(reached, now))
			}
			if err := s.cmd.Process.Signal(syscall.Signal(0)); err != nil {
				t.Fatalf("attacks.txt:%d: the server is gone: %v", a.line, err)
			}
			if left := processesWith(mark); len(left) > 0 {
				t.Errorf("attacks.txt:%d: processes outlived the command: %q", a.line, left)
			}
		})
	}
	for mode, s := range servers {
		if out, err := s.bash(t, "echo still-serving"); err != nil || !strings.Contains(out, "still-serving") {
			t.Errorf("the %s server no longer runs commands: %q %v", mode, out, err)
		}
		if w.cred != nil {
			if out, err := s.bash(t, "echo uid=$(id -u)"); err != nil || !strings.Contains(out, fmt.Sprintf("uid=%d\n", w.cred.Uid)) {
				t.Errorf("the %s server's commands do not run as uid %d: %q %v", mode, w.cred.Uid, out, err)
			}
		}
	}
	if now := w.snapshot(t); now != before {
		t.Errorf("something outside changed after the commands ended:\n%s", diffLines(before, now))
	}
}

// reachableIn are the modes whose server leaves sockets outside the roots
// reachable (--unix-socket): there a listener may see a connection.
var reachableIn = map[string]bool{"sockets": true, "allsockets": true}

// systemSockets starts the listeners in the system's socket places: a
// Docker socket stand-in in a directory under /run (reached through
// /var/run too, where that leads to /run), and a socket at the top of
// /tmp. Where the tests cannot write /run (not run as root), the cases
// that need it are skipped.
func (w *corpusWorld) systemSockets(t *testing.T) {
	t.Helper()
	name := fmt.Sprintf("hands-corpus-%d-%d", os.Getpid(), w.mark)
	if err := os.Mkdir("/run/"+name, 0o755); err == nil {
		t.Cleanup(func() { os.RemoveAll("/run/" + name) })
		w.run = "/run/" + name + "/docker.sock"
		serveUnix(t, w.run, "reached-docker\n", w.witness)
		if r, err := filepath.EvalSymlinks("/var/run"); err == nil && r == "/run" {
			w.varRun = "/var/run/" + name + "/docker.sock"
		}
	}
	w.tmpSock = "/tmp/" + name + ".sock"
	serveUnix(t, w.tmpSock, "reached-tmp\n", w.witness)
	for _, p := range []string{w.run, w.tmpSock} {
		if p == "" {
			continue
		}
		os.Chmod(p, 0o777) // connecting needs write permission on the socket
		if w.cred != nil {
			os.Chown(filepath.Dir(p), int(w.cred.Uid), int(w.cred.Gid))
			os.Chown(p, int(w.cred.Uid), int(w.cred.Gid))
		}
	}
}

// lacks says why a case cannot run here: a socket place it names the tests
// could not make; "" when it can.
func (w *corpusWorld) lacks(command string) string {
	switch {
	case strings.Contains(command, "{RUN}") && w.run == "":
		return fmt.Sprintf("the tests (uid %d) cannot make a socket under /run", os.Getuid())
	case strings.Contains(command, "{VARRUN}") && w.varRun == "":
		return "/var/run does not lead to /run here"
	}
	return ""
}

// reached returns what the socket listeners outside the roots logged.
func (w *corpusWorld) reached(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	entries, err := os.ReadDir(w.witness)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(w.witness, e.Name()))
		fmt.Fprintf(&b, "%s: %d connections\n", e.Name(), bytes.Count(data, []byte("\n")))
	}
	return b.String()
}

func diffLines(a, b string) string {
	as, bs := strings.Split(a, "\n"), strings.Split(b, "\n")
	in := map[string]bool{}
	for _, l := range as {
		in[l] = true
	}
	var out []string
	for _, l := range bs {
		if !in[l] {
			out = append(out, "+ "+l)
		}
	}
	inB := map[string]bool{}
	for _, l := range bs {
		inB[l] = true
	}
	for _, l := range as {
		if !inB[l] {
			out = append(out, "- "+l)
		}
	}
	return strings.Join(out, "\n")
}

// hands doctor says exactly what is enforced, layer by layer.
func TestDoctorSaysWhatIsEnforced(t *testing.T) {
	if err := exec.Command("unshare", "-Urmpf", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("no unprivileged user namespaces here (%v)", err)
	}
	root, deny := t.TempDir(), t.TempDir()
	out, err := exec.Command(binary, "doctor", "--root", root, "--deny", ".env", "--deny-read", deny, "--network", "allow=example.com,*.golang.org", "--sandbox", "strict").CombinedOutput()
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	for _, want := range []string{
		"command namespaces: enforced (sandbox strict)",
		"system: read-only",
		"masked by an empty file or directory: ",
		deny + "\n",
		"masked inside the roots: what the deny patterns match",
		"/proc: the session's own",
		"per-session spawner",
		"nested user namespaces: off",
		"setsid ones included, dies with it",
		"network: HTTP and HTTPS through a proxy admitting only example.com, *.golang.org; nothing else, DNS included",
		"UNIX sockets outside the roots: masked in every network mode (",
		"UNIX sockets reachable: those in the roots and the session's temporary directory; outside, no other",
		"strict: every layer is enforced; commands run",
		"command confinement: Landlock ABI",
		"signals and abstract UNIX sockets are scoped",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
}

// hands doctor says which UNIX sockets outside the roots stay reachable:
// none by default, in every network mode; those --unix-socket or the
// config file's unix_sockets name; all with --unix-socket all.
func TestDoctorSaysWhichSocketsAreReachable(t *testing.T) {
	if err := exec.Command("unshare", "-Urmpf", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("no unprivileged user namespaces here (%v)", err)
	}
	root, dir := t.TempDir(), t.TempDir()
	config := filepath.Join(dir, "hands.json")
	if err := os.WriteFile(config, []byte(`{"unix_sockets": ["/run/postgresql/"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "UNIX sockets reachable: those in the roots and the session's temporary directory; outside, no other (--unix-socket PATH leaves one reachable)\n"},
		{[]string{"--network", "off"}, "outside, no other"},
		{[]string{"--unix-socket", dir + "/docker.sock", "--unix-socket", dir + "/agents/"}, "outside, --unix-socket " + dir + "/docker.sock, " + dir + "/agents/ (every socket below)\n"},
		{[]string{"--config", config}, "outside, --unix-socket /run/postgresql/ (every socket below)\n"},
		{[]string{"--unix-socket", "all"}, "UNIX sockets outside the roots: ALL reachable (--unix-socket all)"},
		{[]string{"--deny-read", dir, "--unix-socket", dir + "/agent.sock"}, "NOT reachable all the same: " + dir + "/agent.sock lies in " + dir + ", which is masked"},
	} {
		out, err := exec.Command(binary, append([]string{"doctor", "--root", root}, c.args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("doctor %q: %v\n%s", c.args, err, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("doctor %q lacks %q:\n%s", c.args, c.want, out)
		}
		if masked := strings.Contains(string(out), "UNIX sockets outside the roots: masked in every network mode"); masked == (c.want == "UNIX sockets outside the roots: ALL reachable (--unix-socket all)") {
			t.Errorf("doctor %q: says the sockets are masked: %v:\n%s", c.args, masked, out)
		}
	}
	out, err := exec.Command(binary, "doctor", "--root", root, "--unix-socket", "docker.sock").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `unix-socket "docker.sock": give the absolute path of a socket`) {
		t.Errorf("a relative --unix-socket was not refused: %v\n%s", err, out)
	}
}
