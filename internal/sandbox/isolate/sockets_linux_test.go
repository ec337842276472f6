package isolate

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listenUnix binds a socket at p, making its directory first.
func listenUnix(t *testing.T, p string) net.Listener {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// The masks cover every way to a socket outside the writable trees that
// the sources show, nothing inside them, and of a directory holding one,
// what else it holds.
func TestSocketMasks(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run, tmp, home, elsewhere := base+"/run", base+"/tmp", base+"/home", base+"/elsewhere"
	for _, d := range []string{run + "/dbus", run + "/current-system/sw", run + "/user/1000/proj", tmp + "/.X11-unix",
		tmp + "/tmux-1000", tmp + "/unrelated", tmp + "/project", home + "/.docker/run", elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(run+"/utmp", nil, 0o644)
	os.Symlink("/dev/shm", run+"/shm")
	listenUnix(t, run+"/docker.sock")
	listenUnix(t, tmp+"/.s.PGSQL.5432")
	listenUnix(t, tmp+"/ssh-abc/agent.1")
	listenUnix(t, tmp+"/project/own.sock")
	listenUnix(t, elsewhere+"/listening sock")
	listenUnix(t, elsewhere+"/bus")
	listenUnix(t, home+"/kitty.sock")
	listenUnix(t, run+"/user/1000/bus")
	os.Symlink(elsewhere, run+"/user/1000/link")
	proc := base + "/net-unix"
	os.WriteFile(proc, []byte(strings.Join([]string{
		"Num       RefCount Protocol Flags    Type St Inode Path",
		"00000000f15d38af: 00000003 00000000 00000000 0001 03   566",
		"00000000d415d564: 00000002 00000000 00010000 0001 01 2448246 " + elsewhere + "/listening sock",
		"00000000d415d565: 00000002 00000000 00010000 0001 01 2448247 @abstract",
		"00000000d415d566: 00000002 00000000 00010000 0001 01 2448248 " + tmp + "/project/own.sock",
		"00000000d415d567: 00000002 00000000 00010000 0002 01 2448249 " + base + "/gone.sock",
		"00000000d415d568: 00000002 00000000 00010000 0001 01 2448250 relative.sock",
	}, "\n")+"\n"), 0o644)
	env := map[string]string{
		"SSH_AUTH_SOCK":            tmp + "/ssh-abc/agent.1",
		"DBUS_SESSION_BUS_ADDRESS": "unix:path=" + elsewhere + "/bus,guid=1234",
		"KITTY_LISTEN_ON":          "unix:" + home + "/kitty.sock",
		"DOCKER_HOST":              "tcp://127.0.0.1:2375",
		"XDG_RUNTIME_DIR":          run + "/user/1000",
		"WAYLAND_DISPLAY":          "wayland-0",
	}
	run2 := base + "/run2" // without NixOS's links: masked whole
	listenUnix(t, run2+"/docker.sock")
	src := socketSources{run: []string{run, run2}, tmp: []string{tmp}, home: home,
		getenv: func(k string) string { return env[k] }, procUnix: proc}
	keep := []string{tmp + "/project", run + "/user/1000/proj"}
	got := src.socketMasks(keep, []string{home + "/.docker"})
	want := []string{
		elsewhere + "/bus",
		elsewhere + "/listening sock",
		home + "/kitty.sock",
		run + "/dbus",
		run + "/docker.sock",
		run + "/user/1000/bus",
		run2,
		tmp + "/.X11-unix",
		tmp + "/.s.PGSQL.5432",
		tmp + "/ssh-abc",
		tmp + "/tmux-1000",
	}
	if !slices.Equal(got, want) {
		t.Errorf("masks:\n got %q\nwant %q", got, want)
	}
}

// spec masks the sockets in every network mode, but those --unix-socket
// leaves reachable, and none with --unix-socket all.
func TestSpecMasksSocketsInEveryNetworkMode(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	listenUnix(t, base+"/run/docker.sock")
	listenUnix(t, base+"/run/other.sock")
	root := base + "/root"
	os.Mkdir(root, 0o755)
	for _, c := range []struct {
		mode      string
		reachable []string
		want      []string // among run, its two sockets
	}{
		{"on", nil, []string{base + "/run"}},
		{"off", nil, []string{base + "/run"}},
		{"allow", nil, []string{base + "/run"}},
		{"on", []string{base + "/run/docker.sock"}, []string{base + "/run/other.sock"}},
		{"off", []string{base + "/run/docker.sock"}, []string{base + "/run/other.sock"}},
		{"on", []string{base + "/run/"}, nil},
		{"on", []string{AllUnixSockets}, nil},
		{"allow", []string{AllUnixSockets}, nil},
	} {
		i := New(Config{Roots: []string{root}, Network: Network{Mode: c.mode, Allow: []string{"example.com"}}, UnixSockets: c.reachable})
		i.sockets = socketSources{run: []string{base + "/run"}, getenv: func(string) string { return "" }}
		masks := i.spec().Masks
		got := slices.DeleteFunc(slices.Clone(masks), func(m string) bool { return !within(m, base+"/run") })
		if !slices.Equal(got, c.want) {
			t.Errorf("network %s, reachable %q: masks %q, want %q", c.mode, c.reachable, got, c.want)
		}
		if doctor := i.SocketMasks(); !slices.Equal(doctor, got) {
			t.Errorf("network %s, reachable %q: SocketMasks says %q, the spec masks %q", c.mode, c.reachable, doctor, got)
		}
	}
}

// A socket --unix-socket names is reachable through links and before it
// exists; a directory keeps its trailing slash.
func TestReachableSockets(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(base+"/real/dir", 0o755)
	os.Symlink(base+"/real", base+"/link")
	i := New(Config{UnixSockets: []string{base + "/link/docker.sock", base + "/link/dir/", base + "/link/later/x.sock", base + "/real/docker.sock"}})
	want := []string{base + "/real/docker.sock", base + "/real/dir/", base + "/real/later/x.sock"}
	if got := i.ReachableSockets(); !slices.Equal(got, want) {
		t.Errorf("reachable: %q, want %q", got, want)
	}
	if !i.MasksUnixSockets() {
		t.Error("a list of sockets masks the others")
	}
	all := New(Config{UnixSockets: []string{base + "/x.sock", AllUnixSockets}})
	if all.MasksUnixSockets() || all.ReachableSockets() != nil {
		t.Error("all masks nothing")
	}
	if err := CheckUnixSockets([]string{"/run/docker.sock", "/run/user/1000/", AllUnixSockets}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"docker.sock", "", "~/x.sock", "ALL"} {
		if err := CheckUnixSockets([]string{bad}); err == nil || !strings.Contains(err.Error(), "give the absolute path of a socket") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// A directory holding something to keep is looked into, but only its
// directories and sockets are masked: a plain file there (resolv.conf
// under /run) needs none.
func TestSocketMasksGoRoundKeptFiles(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run := base + "/run"
	os.MkdirAll(run+"/systemd/resolve", 0o755)
	os.MkdirAll(run+"/user/1000", 0o755)
	os.WriteFile(run+"/systemd/resolve/stub-resolv.conf", []byte("nameserver 127.0.0.53\n"), 0o644)
	os.WriteFile(run+"/systemd/resolve/resolv.conf", nil, 0o644)
	os.WriteFile(run+"/utmp", nil, 0o644)
	listenUnix(t, run+"/systemd/resolve/io.systemd.Resolve")
	listenUnix(t, run+"/systemd/private")
	src := socketSources{run: []string{run}, getenv: func(string) string { return "" }}
	got := src.socketMasks([]string{run + "/systemd/resolve/stub-resolv.conf"}, nil)
	want := []string{run + "/systemd/private", run + "/systemd/resolve/io.systemd.Resolve", run + "/user"}
	if !slices.Equal(got, want) {
		t.Errorf("masks:\n got %q\nwant %q", got, want)
	}
}

func FuzzParseUnixSockets(f *testing.F) {
	f.Add("Num       RefCount Protocol Flags    Type St Inode Path\n00000000d415d564: 00000002 00000000 00010000 0001 01 2448246 /run/a b.sock\n")
	f.Add("0: 1 2 3 4 5 6 @abstract\n0: 1 2 3 4 5   6\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		for _, p := range parseUnixSockets(strings.NewReader(in)) {
			if !strings.HasPrefix(p, "/") || strings.Contains(p, "\n") {
				t.Fatalf("%q is not an absolute path of one line", p)
			}
		}
		// A well-formed line gives back its path.
		line := "00000000d415d564: 00000002 00000000 00010000 0001 01 2448246 /" + strings.ReplaceAll(in, "\n", "")
		if got := parseUnixSockets(strings.NewReader(line + "\n")); len(strings.TrimSpace(line)) == len(line) && (len(got) != 1 || got[0] != "/"+strings.ReplaceAll(in, "\n", "")) {
			t.Fatalf("line %q gave %q", line, got)
		}
	})
}

// BenchmarkSocketMasks is what finding the sockets to mask costs each
// command under --network off or allow= on this machine.
func BenchmarkSocketMasks(b *testing.B) {
	src := hostSockets()
	keep := []string{b.TempDir()}
	n := 0
	for b.Loop() {
		n = len(src.socketMasks(keep, nil))
	}
	b.ReportMetric(float64(n), "masks")
}

// serveWord answers every connection to a socket at p with word.
func serveWord(t *testing.T, p, word string) {
	t.Helper()
	l := listenUnix(t, p)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(word))
			c.Close()
		}
	}()
}

// In every network mode, a command cannot connect to a UNIX socket
// outside the roots, though a read-only mount alone would let it, unless
// --unix-socket names it (or its directory, or all); the roots' own
// sockets stay reachable.
func TestIsolateMasksUnixSockets(t *testing.T) {
	base, connect := socketTest(t)
	root, tmp := base+"/root", base+"/tmp"
	os.Mkdir(tmp, 0o755)
	serveWord(t, base+"/outside/daemon.sock", "reached-outside")
	serveWord(t, root+"/project.sock", "reached-inside")
	script := connect + base + "/outside/daemon.sock " + root + "/project.sock"
	for _, c := range []struct {
		mode      string
		reachable []string
		reached   bool
	}{
		{"off", nil, false},
		{"on", nil, false},
		{"on", []string{base + "/outside/daemon.sock"}, true},
		{"off", []string{base + "/outside/"}, true},
		{"on", []string{AllUnixSockets}, true},
		{"on", []string{base + "/outside/other.sock"}, false},
	} {
		iso := New(Config{Roots: []string{root}, TempDir: tmp, Network: Network{Mode: c.mode}, UnixSockets: c.reachable})
		available(t, iso)
		out, code := runIn(t, iso, root, script)
		if code != 0 || !strings.Contains(out, "reached-inside") {
			t.Errorf("network %s, reachable %q: the root's own socket is not reachable (exit %d):\n%s", c.mode, c.reachable, code, out)
		}
		if got := strings.Contains(out, "reached-outside"); got != c.reached {
			t.Errorf("network %s, reachable %q: the socket outside reached: %v, want %v:\n%s", c.mode, c.reachable, got, c.reached, out)
		}
		if !c.reached && !strings.Contains(out, base+"/outside/daemon.sock [Errno 13] Permission denied") {
			t.Errorf("network %s, reachable %q: the socket outside was not refused as masked:\n%s", c.mode, c.reachable, out)
		}
	}
}

// With the network off, a socket bound outside the roots after the
// session's spawner started is masked from the next command on.
func TestSpawnerMasksSocketsThatAppear(t *testing.T) {
	base, connect := socketTest(t)
	root, tmp := base+"/root", base+"/tmp"
	os.MkdirAll(root, 0o755)
	os.Mkdir(tmp, 0o755)
	iso := New(Config{Roots: []string{root}, TempDir: tmp, Network: Network{Mode: "off"}})
	m, _ := session(t, iso, root, tmp)
	run(t, m, "true")
	sock := base + "/later/daemon.sock"
	serveWord(t, sock, "reached-later")
	out := run(t, m, connect+sock)
	if strings.Contains(out.Merged.Head, "reached-later") || !strings.Contains(out.Merged.Head, "Permission denied") {
		t.Errorf("a socket bound after the session started was reached or not refused as masked:\n%s", out.Merged.Head)
	}
}

// socketTest skips the test where there is no python3, and returns a
// temporary directory whose path holds no link and a command that connects
// to each UNIX socket named after it, printing what it reads there, or the
// path and why it could not connect.
func socketTest(t *testing.T) (base, connect string) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to connect with")
	}
	if base, err = filepath.EvalSymlinks(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return base, py + ` -c 'import socket,sys
for p in sys.argv[1:]:
    s=socket.socket(socket.AF_UNIX); s.settimeout(5)
    try:
        s.connect(p); print(s.recv(20).decode())
    except OSError as e:
        print(p, e)' `
}

// isTmpSocketDir is filepath.Match against each of tmpSocketDirs.
func TestIsTmpSocketDir(t *testing.T) {
	for _, p := range tmpSocketDirs {
		if strings.ContainsAny(strings.TrimSuffix(p, "*"), `*?[\`) {
			t.Fatalf("%q: a wildcard other than a final * needs filepath.Match", p)
		}
	}
	for _, name := range []string{".X11-unix", ".X11-unixx", "tmux-1000", "tmux", "ssh-XXXXabc", "ssh", "nvim.user", "nvim", "mysql.sock.d",
		"vscode-git-1.sock", "gpg-agent", "x", "", ".font-unix", "screen", "screens", "zellij-0", "wezterm-gui"} {
		want := slices.ContainsFunc(tmpSocketDirs, func(p string) bool {
			ok, _ := filepath.Match(p, name)
			return ok
		})
		if got := isTmpSocketDir(name); got != want {
			t.Errorf("%q: %v, filepath.Match says %v", name, got, want)
		}
	}
}
