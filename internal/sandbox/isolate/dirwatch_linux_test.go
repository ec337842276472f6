package isolate

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// A kept listing follows every change of the directory made before the
// next read: entries created, removed, renamed in and out, sockets bound,
// the directory replaced by another or removed.
func TestDirWatchSeesEveryChange(t *testing.T) {
	if dirs().fd < 0 {
		t.Skip("no inotify instance to be had: every listing is read from disk")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := base + "/d"
	os.Mkdir(d, 0o755)
	os.WriteFile(d+"/a", nil, 0o644)
	check := func(step string, want ...string) {
		t.Helper()
		if got := names(readDir(d)); !slices.Equal(got, want) {
			t.Fatalf("%s: listed %q, want %q", step, got, want)
		}
	}
	check("first read", "a")
	check("unchanged", "a")
	os.Mkdir(d+"/ssh-x", 0o700)
	check("a directory made", "a", "ssh-x")
	l, err := net.Listen("unix", d+"/s.sock")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	check("a socket bound", "a", "s.sock", "ssh-x")
	os.Remove(d + "/a")
	check("a file removed", "s.sock", "ssh-x")
	os.WriteFile(base+"/b", nil, 0o644)
	os.Rename(base+"/b", d+"/b")
	check("a file moved in", "b", "s.sock", "ssh-x")
	os.Rename(d+"/ssh-x", base+"/ssh-x")
	check("a directory moved out", "b", "s.sock")
	os.Rename(d, base+"/old")
	os.Mkdir(d, 0o755)
	os.Mkdir(d+"/tmux-0", 0o755)
	check("the directory replaced", "tmux-0")
	os.WriteFile(base+"/old/c", nil, 0o644)
	check("the old directory changed", "tmux-0")
	os.Remove(d + "/tmux-0")
	os.Remove(d)
	check("the directory removed")
	os.Mkdir(d, 0o755)
	os.Mkdir(d+"/.X11-unix", 0o755)
	check("made again", ".X11-unix")
	os.Remove(base + "/old/c")
	os.Remove(base + "/old/b")
	os.Symlink(base+"/old", base+"/link")
	os.Remove(d + "/.X11-unix")
	os.Remove(d)
	os.Rename(base+"/link", d)
	check("a link to a directory now (no watch: read each time, as before)", "s.sock")
	os.WriteFile(base+"/old/e", nil, 0o644)
	check("through the link, changed", "e", "s.sock")
}

// A socket bound outside the roots by another process in a directory the
// selection lists (here a stand-in for /tmp, after a command had already
// run and the listing was kept) is masked from the next command on. A
// command itself cannot make one there: outside the writable trees, which
// the masks leave alone, everything is read-only to it.
func TestSpawnerMasksSocketsListedSince(t *testing.T) {
	base, connect := socketTest(t)
	root, tmp, shared := base+"/root", base+"/tmp", base+"/shared"
	for _, d := range []string{root, tmp, shared} {
		os.MkdirAll(d, 0o755)
	}
	noProc := base + "/net-unix" // no socket listed there: only the listing can show it
	os.WriteFile(noProc, nil, 0o644)
	iso := New(Config{Roots: []string{root}, TempDir: tmp})
	iso.sockets = socketSources{tmp: []string{shared}, getenv: func(string) string { return "" }, procUnix: noProc}
	m, _ := session(t, iso, root, tmp)
	if out := run(t, m, connect+shared+"/none.sock"); !strings.Contains(out.Merged.Head, "No such file") {
		t.Fatalf("the first command:\n%s", out.Merged.Head)
	}
	// Bound by a process of its own, outside the sandbox, as a daemon
	// starting while the session runs would.
	srv := exec.Command("python3", "-c", `import socket,sys,os
a=socket.socket(socket.AF_UNIX); a.bind(sys.argv[1]); a.listen(8)
os.makedirs(os.path.dirname(sys.argv[2]))
b=socket.socket(socket.AF_UNIX); b.bind(sys.argv[2]); b.listen(8)
print("ready", flush=True)
sys.stdin.read()`, shared+"/daemon.sock", shared+"/ssh-agentdir/agent.1")
	stdin, _ := srv.StdinPipe()
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); srv.Wait() }()
	if ready, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || ready != "ready\n" {
		t.Fatalf("the outside process did not bind its sockets: %q %v", ready, err)
	}
	for range 2 {
		out := run(t, m, connect+shared+"/daemon.sock "+shared+"/ssh-agentdir/agent.1")
		// The socket is covered by a mask, the directory by an empty one.
		for _, p := range []string{shared + "/daemon.sock [Errno 13] Permission denied", shared + "/ssh-agentdir/agent.1 [Errno 2] No such file"} {
			if !strings.Contains(out.Merged.Head, p) {
				t.Errorf("bound after the listing was kept, not refused as masked: want %q in\n%s", p, out.Merged.Head)
			}
		}
	}
}

// A kept resolution is what filepath.EvalSymlinks says now, after every
// kind of change to the directories the walk looked in: a missing name
// made, a directory above renamed and replaced, a link pointed elsewhere
// or made to loop.
func TestResolvedFollowsChanges(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	check := func(step, p string) {
		t.Helper()
		want, err := filepath.EvalSymlinks(p)
		got, ok := resolved(p)
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("%s: resolved(%q) = %q, %v; EvalSymlinks says %q, %v", step, p, got, ok, want, err)
		}
	}
	p := base + "/a/b/c"
	os.MkdirAll(base+"/a/b", 0o755)
	check("missing", p)
	check("missing, kept", p)
	os.WriteFile(p, nil, 0o644)
	check("made", p)
	os.Rename(base+"/a", base+"/x")
	check("a directory above moved away", p)
	os.Symlink("x", base+"/a")
	check("a link in its place", p)
	check("a link in its place, kept", p)
	os.MkdirAll(base+"/y/b/c", 0o755)
	os.Remove(base + "/a")
	os.Symlink(base+"/y", base+"/a")
	check("the link pointed elsewhere", p)
	os.Rename(base+"/y", base+"/z")
	os.MkdirAll(base+"/y/b", 0o755)
	check("the link's target replaced", p)
	os.Symlink("../b/loop", base+"/y/b/loop")
	check("a loop", base+"/a/b/loop/c")
	os.Remove(base + "/y/b/loop")
	os.Symlink("/", base+"/y/b/loop")
	check("the loop undone", base+"/a/b/loop/tmp")
	check("dot-dot through a link", base+"/a/b/../b/./c/..")
	os.Remove(base + "/a")
	os.WriteFile(base+"/a", nil, 0o644)
	check("a file where a directory was", p)
}

// FuzzResolved checks resolved against filepath.EvalSymlinks on a tree of
// directories, files and links, changed between the two lookups of each
// path by the fuzzer's choice.
func FuzzResolved(f *testing.F) {
	f.Add("d/l1/f", uint8(0))
	f.Add("l2/../d/./e", uint8(1))
	f.Add("loop/x", uint8(2))
	f.Add("d/e/../../l3/d", uint8(3))
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rel string, change uint8) {
		if strings.ContainsRune(rel, 0) || len(rel) > 200 {
			return
		}
		root, err := os.MkdirTemp(base, "t")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(root)
		os.MkdirAll(root+"/d/e", 0o755)
		os.WriteFile(root+"/d/f", nil, 0o644)
		os.Symlink("e", root+"/d/l1")
		os.Symlink(root+"/d", root+"/l2")
		os.Symlink("loop", root+"/loop")
		os.Symlink("..", root+"/l3")
		p := filepath.Join(root, rel)
		want, werr := filepath.EvalSymlinks(p)
		got, ok := resolved(p)
		if ok != (werr == nil) || ok && got != want {
			t.Fatalf("resolved(%q) = %q, %v; EvalSymlinks says %q, %v", p, got, ok, want, werr)
		}
		switch change % 4 {
		case 0:
			os.Remove(root + "/d/l1")
			os.Symlink("f", root+"/d/l1")
		case 1:
			os.Rename(root+"/d", root+"/d2")
			os.MkdirAll(root+"/d/x", 0o755)
		case 2:
			os.Remove(root + "/loop")
			os.Symlink("d", root+"/loop")
		case 3:
			os.MkdirAll(root+"/d/e/d/x", 0o755)
		}
		want, werr = filepath.EvalSymlinks(p)
		got, ok = resolved(p)
		if ok != (werr == nil) || ok && got != want {
			t.Fatalf("after change %d: resolved(%q) = %q, %v; EvalSymlinks says %q, %v", change%4, p, got, ok, want, werr)
		}
	})
}

// A lookup refused for want of a mode is looked up again: once the mode
// allows it, the path resolves (modes queue no event: see dirWatch). Run
// as an ordinary user, for whom modes count: as nobody when the tests run
// as root, in a copy of the test binary nobody may run.
func TestResolvedRetriesARefusal(t *testing.T) {
	if os.Getuid() == 0 && os.Getenv("ISOLATE_TEST_NOBODY") == "" {
		dir, err := os.MkdirTemp("", "isolate-nobody-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		os.Chmod(dir, 0o755)
		raw, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "isolate.test")
		if err := os.WriteFile(bin, raw, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run", "^TestResolvedRetriesARefusal$", "-test.v")
		cmd.Env = append(os.Environ(), "ISOLATE_TEST_NOBODY=1", "TMPDIR=/tmp")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("as nobody: %v\n%s", err, out)
		}
		return
	}
	base, err := os.MkdirTemp("", "resolve-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	if base, err = filepath.EvalSymlinks(base); err != nil {
		t.Fatal(err)
	}
	// Mode 0644: the directory can be read, so it is watched, but no
	// name in it can be looked up.
	d, p := base+"/d", base+"/d/s"
	os.Mkdir(d, 0o755)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(d, 0o644)
	defer os.Chmod(d, 0o755)
	if _, err := os.Lstat(p); err == nil {
		t.Skip("a directory of mode 0644 is searchable here: the user overrides modes")
	}
	if _, ok := resolved(p); ok {
		t.Fatalf("resolved(%q) in a directory of mode 0644 succeeded", p)
	}
	os.Chmod(d, 0o755)
	if got, ok := resolved(p); !ok || got != p {
		t.Fatalf("resolved(%q) once the mode allows it = %q, %v; want the path itself (the refusal was kept)", p, got, ok)
	}
}

// The watches ask for no IN_ATTRIB: with it, adding a watch on a directory
// makes the kernel mark every dentry cached under it, and on a long-lived
// /tmp that took 27 ms at each start of a server (see dirWatch).
func TestWatchesAskNoModes(t *testing.T) {
	if watchMask&unix.IN_ATTRIB != 0 {
		t.Error("watchMask has IN_ATTRIB")
	}
}
