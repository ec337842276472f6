package isolate

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Path-based UNIX sockets outside the roots.
//
// A read-only mount does not stop connect(2) on a UNIX socket file: the
// kernel's read-only check covers writes to files, directories and links,
// and a connection writes none. So a command could reach /run/docker.sock
// (and through Docker, `docker run -v /:/host`, everything), a D-Bus bus,
// an ssh-agent, a gpg-agent, systemd, X11, tmux or an editor's command
// socket, whatever the network mode. Unless Config.UnixSockets says "all",
// the spec covers, with empty read-only masks:
//
//   - /run (and /var/run) whole, or where it holds NixOS's system links
//     (which hold programs, not sockets), every directory and socket at its
//     top but those;
//   - the usual socket directories and sockets at the top of the temporary
//     directories (/tmp/.X11-unix, /tmp/tmux-UID, /tmp/ssh-*, …);
//   - the runtime directory ($XDG_RUNTIME_DIR) and every socket the
//     server's environment names (SSH_AUTH_SOCK, DOCKER_HOST, the D-Bus
//     buses, TMUX, NVIM, VS Code's and kitty's sockets, …), with the
//     directory of those in a temporary directory;
//   - the usual socket directories under home (Docker Desktop, Colima,
//     Lima, Rancher Desktop);
//   - every socket bound by a path in the host's network namespace when the
//     command starts (/proc/net/unix), wherever it is.
//
// What lies inside the writable trees (the roots, the session's temporary
// directory: the project's own sockets, the allow mode's proxy), the
// sockets and directories Config.UnixSockets names (--unix-socket) and
// what the system needs (systemKeep: resolv.conf under /run) stays
// reachable; a directory that holds one of them is not masked, but the
// directories and sockets it also holds are.
//
// Landlock controls connecting to a socket by path only from ABI 9
// (LANDLOCK_ACCESS_FS_RESOLVE_UNIX, Linux 7.1); on older kernels (6.18
// has ABI 7) masks are the way, and without namespaces there is none
// (package confine asks for the right where the kernel has it).

// SocketMasks lists what the masks of a command started now cover to keep
// it from the UNIX sockets outside the writable trees, for `hands
// doctor`: nothing with --unix-socket all.
func (i *Isolator) SocketMasks() []string {
	if !i.MasksUnixSockets() {
		return nil
	}
	return i.socketMasks(i.spec().Writable, nil)
}

// socketMasks lists the masks that keep a command from the UNIX sockets
// outside writable, the proxy's socket and the reachable ones, but those
// below masked.
func (i *Isolator) socketMasks(writable, masked []string) []string {
	keep := slices.Clone(writable)
	if r, ok := resolved(i.cfg.ProxySocket); ok {
		keep = append(keep, r)
	}
	for _, r := range i.ReachableSockets() {
		keep = append(keep, strings.TrimSuffix(r, "/"))
	}
	keep = append(keep, systemKeep()...)
	return i.sockets.socketMasks(keep, masked)
}

// socketEnv are the variables whose value names a socket: the part after
// the prefix, up to the first of cut (if any), is its path.
var socketEnv = []struct{ name, prefix, cut string }{
	{"SSH_AUTH_SOCK", "", ""},
	{"DOCKER_HOST", "unix://", ""},
	{"CONTAINER_HOST", "unix://", ""},
	{"BUILDKIT_HOST", "unix://", ""},
	{"DBUS_SESSION_BUS_ADDRESS", "unix:path=", ","},
	{"DBUS_SYSTEM_BUS_ADDRESS", "unix:path=", ","},
	{"TMUX", "", ","},
	{"NVIM", "", ""},
	{"NVIM_LISTEN_ADDRESS", "", ""},
	{"VSCODE_IPC_HOOK", "", ""},
	{"VSCODE_IPC_HOOK_CLI", "", ""},
	{"KITTY_LISTEN_ON", "unix:", ""},
	{"WEZTERM_UNIX_SOCKET", "", ""},
	{"GPG_AGENT_INFO", "", ":"},
	{"PULSE_SERVER", "unix:", ""},
	{"WAYLAND_DISPLAY", "", ""},
}

// runKeep are the entries of /run left visible: NixOS's links to the
// system's programs.
var runKeep = []string{"current-system", "booted-system", "wrappers", "opengl-driver", "opengl-driver-32", "binfmt"}

// tmpSocketDirs are the entries of a temporary directory that hold sockets
// by convention.
var tmpSocketDirs = []string{".X11-unix", ".ICE-unix", ".XIM-unix", ".font-unix", "tmux-*", "ssh-*", "dbus-*",
	"nvim*", "screen*", "zellij-*", "kitty-*", "wezterm*", "vscode-*", "mysql*", "pulse-*", "gpg-*"}

// isTmpSocketDir reports whether name matches one of tmpSocketDirs, whose
// only wildcard is a final * (a prefix test: a shared /tmp holds
// hundreds of entries, looked at for every command).
func isTmpSocketDir(name string) bool {
	for _, p := range tmpSocketDirs {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, prefix) || name == p {
			return true
		}
	}
	return false
}

// homeSocketDirs are the directories under home that hold container
// runtimes' sockets.
var homeSocketDirs = []string{".docker/run", ".docker/desktop", ".colima", ".lima", ".rd"}

// socketSources says where socketMasks looks; tests point it elsewhere.
type socketSources struct {
	run      []string // /run and /var/run
	tmp      []string // the temporary directories
	home     string
	getenv   func(string) string
	procUnix string // /proc/net/unix
}

func hostSockets() socketSources {
	home, _ := os.UserHomeDir()
	tmp := []string{"/tmp", "/var/tmp"}
	if t := filepath.Clean(os.TempDir()); !slices.Contains(tmp, t) {
		tmp = append(tmp, t)
	}
	return socketSources{run: []string{"/run", "/var/run"}, tmp: tmp, home: home, getenv: os.Getenv, procUnix: "/proc/net/unix"}
}

// socketMasks lists, resolved, what to mask so that no path-based UNIX
// socket outside keep (the writable trees, the proxy socket, the reachable
// sockets) can be reached: nothing inside a keep path, nothing below an
// entry of masked (already covered), and of a directory that holds a keep
// path, the other directories and sockets it holds.
func (src socketSources) socketMasks(keep, masked []string) []string {
	// Entries of /run and the temporary directories are real paths once
	// their directory is resolved (links among them are left out); the
	// rest (cand) need resolving.
	var real, cand []string
	l := lookups()
	defer l.done()
	for _, run := range resolvedDirs(l, src.run) {
		entries := l.readDir(run)
		if !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return slices.Contains(runKeep, e.Name()) }) {
			// One mask for the whole directory: each costs the command a
			// mount. (One that holds a writable tree is looked into below.)
			real = append(real, run)
			continue
		}
		for _, e := range entries {
			t := e.Type()
			if slices.Contains(runKeep, e.Name()) || !(t.IsDir() || t&os.ModeSocket != 0) {
				continue
			}
			real = append(real, filepath.Join(run, e.Name()))
		}
	}
	for _, tmp := range resolvedDirs(l, src.tmp) {
		real = append(real, l.tmpSockets(tmp)...)
	}
	if d := src.getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		cand = append(cand, d)
	}
	for _, v := range socketEnv {
		p, ok := strings.CutPrefix(src.getenv(v.name), v.prefix)
		if !ok {
			continue
		}
		if v.cut != "" {
			p, _, _ = strings.Cut(p, v.cut)
		}
		if !filepath.IsAbs(p) {
			continue
		}
		cand = append(cand, p)
		dir := filepath.Dir(p)
		if slices.ContainsFunc(src.tmp, func(tmp string) bool { return filepath.Dir(dir) == filepath.Clean(tmp) }) {
			cand = append(cand, dir) // an agent's own directory: a new socket there is covered too
		}
	}
	if src.home != "" {
		for _, d := range homeSocketDirs {
			cand = append(cand, filepath.Join(src.home, d))
		}
	}
	cand = append(cand, readUnixSockets(src.procUnix)...)
	for _, c := range cand {
		if r, ok := l.resolve(c); ok {
			real = append(real, r)
		}
	}
	var out []string
	seen := map[string]bool{}
	for len(real) > 0 {
		r := real[0]
		real = real[1:]
		if seen[r] || r == "/" {
			continue
		}
		seen[r] = true
		if slices.ContainsFunc(keep, func(k string) bool { return within(r, k) }) ||
			slices.ContainsFunc(masked, func(m string) bool { return within(r, m) }) {
			continue
		}
		if slices.ContainsFunc(keep, func(k string) bool { return within(k, r) }) {
			// It holds a writable tree (a root under /run/user/UID) or a
			// reachable socket: the other directories and sockets it
			// holds are masked instead (links lead to what has its own
			// mask; plain files are no way to a socket).
			entries := l.readDir(r)
			for _, e := range entries {
				if e.IsDir() || e.Type()&os.ModeSocket != 0 {
					real = append(real, filepath.Join(r, e.Name()))
				}
			}
			continue
		}
		out = append(out, r)
	}
	// What a masked directory holds needs no mask of its own.
	slices.Sort(out)
	return slices.DeleteFunc(out, func(p string) bool {
		return slices.ContainsFunc(out, func(d string) bool { return d != p && within(p, d) })
	})
}

// resolvedDirs resolves dirs, each once (/var/run is often /run).
func resolvedDirs(l lookup, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if r, ok := l.resolve(d); ok && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// parseUnixSockets reads /proc/net/unix and returns the absolute paths of
// the sockets bound there (abstract and unnamed ones have none).
func parseUnixSockets(r io.Reader) []string {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		// Num RefCount Protocol Flags Type St Inode Path: the path, if
		// any, is what follows the seventh field.
		rest := sc.Bytes()
		for range 7 {
			rest = bytes.TrimLeft(rest, " ")
			i := bytes.IndexByte(rest, ' ')
			if i < 0 {
				rest = nil
				break
			}
			rest = rest[i:]
		}
		p := string(bytes.TrimLeft(rest, " "))
		if strings.HasPrefix(p, "/") {
			out = append(out, p)
		}
	}
	return out
}
