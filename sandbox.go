package hands

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/sandbox/confine"
	"github.com/hands-dev/hands/internal/sandbox/isolate"
	"github.com/hands-dev/hands/internal/sandbox/netfilter"
)

// Sandbox modes (Options.Sandbox).
const (
	// SandboxAuto runs each command in namespaces of its own (read-only
	// system, masked secrets, private /proc, kill-all) with Landlock
	// inside, where the kernel allows, and falls back to Landlock alone,
	// saying so at start-up, where it does not. The default.
	SandboxAuto = "auto"
	// SandboxNamespaces is SandboxAuto (its name before namespaces were
	// the default).
	SandboxNamespaces = "namespaces"
	// SandboxLandlock confines commands with Landlock alone, without
	// namespaces (cheaper per command, weaker: see hands doctor); a
	// --network policy still needs the namespaces.
	SandboxLandlock = "landlock"
	// SandboxStrict refuses to run commands unless every layer is
	// enforced: namespaces, Landlock with scoping, and the network policy.
	SandboxStrict = "strict"
)

// maxMaskWalk bounds how many entries of the roots are looked at, per
// command, for files a deny pattern matches.
const maxMaskWalk = 200000

// commandSandbox is what confines a runtime's shell commands: built once,
// probed once.
type commandSandbox struct {
	once  sync.Once
	probe isolate.Report
	proxy *isolate.Proxy
	err   error
	// background is the probe ProbeSandbox started, which Close waits
	// for.
	background sync.WaitGroup
	// probing, when set (by tests), runs as the probe starts, while a
	// command that needs its result waits.
	probing func()
	// spareDir is the session directory the probe made ahead, which the
	// next session takes; spawner, whose mounts and Landlock rules were
	// set up for spareDir's tmp (spawnerTmp), is the probe's, kept for the
	// first command of that session. Both are guarded by Runtime.mu.
	spareDir   string
	spawner    *isolate.Spawner
	spawnerTmp string
}

// isolator returns the namespace isolator for a session whose temporary
// directory is tempDir.
func (r *Runtime) isolator(tempDir string) *isolate.Isolator {
	ll := r.confinePolicy(tempDir)
	ll.Scoped = true
	var landlock *confine.Policy
	if confine.Status(ll).Enforced {
		landlock = &ll
	}
	net, _ := isolate.ParseNetwork(r.opts.Network) // checked in New
	cfg := isolate.Config{
		Helper:   r.opts.SandboxHelper,
		Roots:    r.fs.Roots(),
		TempDir:  tempDir,
		Writable: r.opts.Writable,
		Mask:     r.masks(),
		Landlock: landlock,
		Network:  net,
	}
	if r.hasRelativeDeny() {
		cfg.MaskMatches = r.deniedInRoots
	}
	if net.Mode == "allow" && r.sandbox.proxy != nil {
		cfg.ProxySocket = r.sandbox.proxy.Socket()
	}
	cfg.UnixSockets = r.opts.UnixSockets
	return isolate.New(cfg)
}

// masks returns the paths outside the roots commands must not read: the
// usual secrets under home, the --deny-read paths and the absolute deny
// patterns.
func (r *Runtime) masks() []string {
	home, _ := os.UserHomeDir()
	m := confine.SecretPaths(home)
	m = append(m, r.opts.DenyRead...)
	for _, d := range r.opts.Deny {
		if filepath.IsAbs(d) && !strings.ContainsAny(d, "*?[") {
			m = append(m, d)
		}
	}
	return m
}

// hasRelativeDeny reports whether a deny pattern applies inside the roots.
func (r *Runtime) hasRelativeDeny() bool {
	return slices.ContainsFunc(r.opts.Deny, func(d string) bool { return !filepath.IsAbs(d) })
}

// deniedInRoots lists what the deny patterns match in the roots now: a
// denied directory whole, without looking inside.
func (r *Runtime) deniedInRoots() []string {
	var out []string
	n := 0
	for _, root := range r.fs.Roots() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if n++; n > maxMaskWalk {
				return filepath.SkipAll
			}
			if err != nil || p == root {
				return nil
			}
			if r.fs.Denied(p) {
				out = append(out, p)
				if d.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
	}
	return out
}

// sandboxState probes, once, what the kernel lets the sandbox enforce.
func (r *Runtime) sandboxState() (isolate.Report, error) { return r.sandboxStateFor("") }

// sandboxStateFor is sandboxState for a session whose temporary directory
// is tempDir: if the probe has not run yet, its spawner is that session's.
func (r *Runtime) sandboxStateFor(tempDir string) (isolate.Report, error) {
	r.sandbox.once.Do(func() {
		if r.sandbox.probing != nil {
			r.sandbox.probing()
		}
		if r.opts.NoSandbox || !r.wantsNamespaces() {
			return
		}
		r.sandbox.probe = r.probeSandbox(tempDir)
	})
	return r.sandbox.probe, r.sandbox.err
}

// probeSandbox starts a spawner, as a session's commands get, and reports
// whether it works. A spawner's mounts and Landlock rules are fixed at its
// start for one temporary directory, so it cannot serve any session but
// the one it was set up for: that of the session whose first command asks
// (tempDir), or else the next session's, whose directory the probe makes
// ahead; the session that takes the directory (NewSession) runs its
// commands in the probe's spawner rather than starting a second one
// (sandboxFor).
func (r *Runtime) probeSandbox(tempDir string) isolate.Report {
	tmp := tempDir
	if tmp == "" {
		r.mu.Lock()
		dir := ""
		if !r.closed {
			dir, _ = newSessionDir(r.tmp.path) // on failure, the probe's spawner is not kept
			r.sandbox.spareDir = dir
		}
		r.mu.Unlock()
		tmp = r.tmp.path
		if dir != "" {
			tmp = filepath.Join(dir, "tmp")
		}
	}
	sp := r.isolator(tmp).NewSpawner()
	probe := sp.Probe()
	r.mu.Lock()
	keep := probe.Namespaces && tmp != r.tmp.path && !r.closed
	if keep {
		r.sandbox.spawner, r.sandbox.spawnerTmp = sp, tmp
	}
	r.mu.Unlock()
	if !keep {
		sp.Close()
	}
	return probe
}

// takeSpareDir returns the session directory the probe made ahead, for a
// new session to take, or "" when there is none; r.mu is held.
func (r *Runtime) takeSpareDir() string {
	dir := r.sandbox.spareDir
	r.sandbox.spareDir = ""
	return dir
}

// probedSpawner returns the probe's spawner if it was set up for tempDir
// and no session has taken it yet; nil otherwise.
func (r *Runtime) probedSpawner(tempDir string) *isolate.Spawner {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sandbox.spawner == nil || r.sandbox.spawnerTmp != tempDir {
		return nil
	}
	sp := r.sandbox.spawner
	r.sandbox.spawner = nil
	return sp
}

// closeProbedSpawner stops the probe's spawner if no session took it.
func (r *Runtime) closeProbedSpawner() error {
	r.mu.Lock()
	sp := r.sandbox.spawner
	r.sandbox.spawner = nil
	r.mu.Unlock()
	if sp == nil {
		return nil
	}
	return sp.Close()
}

// missing lists what the sandbox cannot enforce here, each with why; empty
// when everything is.
func (r *Runtime) missing() []string {
	if r.opts.NoSandbox {
		return []string{"the sandbox is switched off (--no-sandbox)"}
	}
	var out []string
	// With --sandbox landlock the namespaces are off on purpose: not
	// something missing.
	if r.wantsNamespaces() {
		if probe, _ := r.sandboxState(); !probe.Namespaces {
			out = append(out, "namespaces (read-only system, masked secrets, private /proc, network policy and UNIX sockets, kill-all): "+probe.Reason)
		}
	}
	ll := r.confinePolicy(r.tmp.path)
	ll.Scoped = true
	rep := confine.Status(ll)
	if !rep.Enforced {
		out = append(out, "Landlock: "+rep.Reason)
	} else if rep.ABI < 6 {
		out = append(out, fmt.Sprintf("Landlock signal and abstract-socket scoping: needs ABI 6, the kernel has %d", rep.ABI))
	}
	if why := r.unixSocketsOpen(rep); why != "" {
		out = append(out, why)
	}
	return out
}

// wantsNamespaces reports whether commands are to run in namespaces.
func (r *Runtime) wantsNamespaces() bool {
	net, _ := isolate.ParseNetwork(r.opts.Network)
	return r.opts.Sandbox != SandboxLandlock || net.Mode != "on"
}

// sandboxFor sets cfg up to confine a session's commands as the options
// say: in namespaces with Landlock inside where the kernel allows, else
// Landlock alone; with SandboxStrict, an error when anything is missing.
func (r *Runtime) sandboxFor(cfg *jobs.Config, tempDir string) error {
	if r.opts.NoSandbox {
		return nil
	}
	if r.wantsNamespaces() {
		r.sandboxStateFor(tempDir) // the probe, if none ran yet, starts this session's spawner
	}
	if r.opts.Sandbox == SandboxStrict {
		if miss := r.missing(); len(miss) > 0 {
			return fmt.Errorf("--sandbox strict: commands do not run because the sandbox cannot enforce: %s; run `hands doctor` for details", strings.Join(miss, "; "))
		}
	}
	if !r.wantsNamespaces() {
		// Landlock alone, below.
	} else if probe, _ := r.sandboxState(); probe.Namespaces {
		cfg.Env = r.cacheEnv(cfg.Env, tempDir)
		if sp := r.probedSpawner(tempDir); sp != nil {
			cfg.Spawner = sp // the probe's, set up for this session
		} else {
			cfg.Spawner = r.isolator(tempDir).NewSpawner()
		}
		return nil
	}
	filter, err := r.networkFilter()
	if err != nil {
		return err
	}
	ll := r.confinePolicy(tempDir)
	ll.Scoped = true
	c := confine.New(ll)
	switch {
	case c.Enforced() && filter != nil:
		cfg.Confine = func() error {
			if err := c.RestrictThread(); err != nil {
				return err
			}
			return filter()
		}
	case c.Enforced():
		cfg.Confine = c.RestrictThread
	case filter != nil:
		cfg.Confine = filter
	}
	if c.Enforced() {
		cfg.Env = r.cacheEnv(cfg.Env, tempDir)
	}
	return nil
}

// networkFilter is what enforces the network policy on commands that run
// without namespaces: nothing for "on"; for "off", the seccomp filter that
// leaves them no sockets but UNIX ones, where the kernel takes it; an
// error (commands do not run rather than reach the network) otherwise.
func (r *Runtime) networkFilter() (func() error, error) {
	net, _ := isolate.ParseNetwork(r.opts.Network)
	switch net.Mode {
	case "on":
		return nil, nil
	case "off":
		if err := netfilter.Available(); err != nil {
			return nil, fmt.Errorf("--network off cannot be enforced: no namespaces (%s) and %v; commands do not run rather than reach the network", r.sandbox.probe.Reason, err)
		}
		return netfilter.DenyNetworkThread, nil
	}
	return nil, fmt.Errorf("--network %s cannot be enforced without namespaces (%s); commands do not run rather than reach the network", r.opts.Network, r.sandbox.probe.Reason)
}

// SandboxWarnings lists what the sandbox could not enforce, for the
// start-up message; nil when everything is (or the sandbox is off on
// purpose).
func (r *Runtime) SandboxWarnings() []string {
	if r.opts.NoSandbox {
		return nil
	}
	return r.missing()
}

// checkSandboxOptions checks the sandbox options.
func checkSandboxOptions(opts Options) error {
	switch opts.Sandbox {
	case "", SandboxAuto, SandboxNamespaces, SandboxLandlock, SandboxStrict:
	default:
		return fmt.Errorf("sandbox %q: use auto, landlock or strict (or no_sandbox to switch it off)", opts.Sandbox)
	}
	if _, err := isolate.ParseNetwork(opts.Network); err != nil {
		return err
	}
	if err := isolate.CheckUnixSockets(opts.UnixSockets); err != nil {
		return err
	}
	for _, p := range opts.DenyRead {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("deny-read %q: give an absolute path (patterns inside the roots go to deny)", p)
		}
	}
	for _, p := range opts.Writable {
		if st, err := os.Stat(p); err != nil || !st.IsDir() || !filepath.IsAbs(p) {
			return fmt.Errorf("writable %q: give an absolute path of an existing directory", p)
		}
	}
	return nil
}

// startProxy starts the network proxy of the allow= mode.
func (r *Runtime) startProxy() error {
	net, _ := isolate.ParseNetwork(r.opts.Network)
	if net.Mode != "allow" || r.opts.NoSandbox {
		return nil
	}
	p, err := isolate.NewProxy(filepath.Join(r.tmp.path, "proxy.sock"), net.Allow)
	if err != nil {
		return err
	}
	r.sandbox.proxy = p
	return nil
}

// Confinement reports exactly what the kernel enforces on shell commands,
// for `hands doctor`.
func (r *Runtime) Confinement() string {
	var b strings.Builder
	mode := r.opts.Sandbox
	if mode == "" {
		mode = SandboxAuto
	}
	net, _ := isolate.ParseNetwork(r.opts.Network)
	switch probe, _ := r.sandboxState(); {
	case r.opts.NoSandbox:
		b.WriteString("command namespaces: off (--no-sandbox)\n")
	case !r.wantsNamespaces():
		b.WriteString("command namespaces: off (--sandbox landlock; the default, auto, turns them on)\n")
		b.WriteString("  not enforced: read-only system, masked secrets, private /proc (the server's environ and signals), killing setsid processes\n")
		b.WriteString(r.unixSocketLines(false))
	case probe.Namespaces:
		fmt.Fprintf(&b, "command namespaces: enforced (sandbox %s): user, mount, PID and IPC namespaces per session, set up once by a per-session spawner (PID 1 there, which commands cannot signal, trace or read) that starts each command in a UTS namespace of its own\n", mode)
		b.WriteString("  system: read-only (chmod, chown, utimes, xattrs, mknod outside fail with EROFS/EPERM) except the roots and the session's temporary directory\n")
		var masked []string
		for _, m := range r.masks() {
			if _, err := os.Lstat(m); err == nil {
				masked = append(masked, m)
			}
		}
		if len(masked) == 0 {
			masked = []string{"(nothing present)"}
		}
		fmt.Fprintf(&b, "  masked by an empty file or directory: %s\n", strings.Join(masked, ", "))
		if r.hasRelativeDeny() {
			fmt.Fprintf(&b, "  masked inside the roots: what the deny patterns match when each command starts (first %d entries of the roots)\n", maxMaskWalk)
		}
		b.WriteString("  /proc: the session's own (its commands and the spawner); the server and other sessions are invisible and cannot be signalled\n")
		b.WriteString("  nested user namespaces: off (a command cannot regain capabilities to leave its namespaces)\n")
		b.WriteString("  processes: every process of a command, setsid ones included, dies with it, with its session and with the server\n")
		switch net.Mode {
		case "on":
			b.WriteString("  network: on (the host's network, loopback services included)\n")
		case "off":
			b.WriteString("  network: off (a network namespace with loopback only)\n")
		default:
			fmt.Fprintf(&b, "  network: HTTP and HTTPS through a proxy admitting only %s; nothing else, DNS included\n", strings.Join(net.Allow, ", "))
		}
		b.WriteString(r.unixSocketLines(true))
	default:
		fmt.Fprintf(&b, "command namespaces: NOT enforced: %s\n", probe.Reason)
		b.WriteString("  not enforced: read-only system, masked secrets, private /proc (the server's environ and signals), killing setsid processes\n")
		if _, err := r.networkFilter(); err != nil {
			fmt.Fprintf(&b, "  commands are refused: %v\n", err)
		} else {
			if net.Mode == "off" {
				b.WriteString("  network: off through a seccomp filter (no sockets but UNIX ones; io_uring refused)\n")
			}
			b.WriteString(r.unixSocketLines(false))
		}
	}
	if mode == SandboxStrict {
		if miss := r.missing(); len(miss) > 0 {
			fmt.Fprintf(&b, "  strict: commands are REFUSED, because of: %s\n", strings.Join(miss, "; "))
		} else {
			b.WriteString("  strict: every layer is enforced; commands run\n")
		}
	}
	ll := r.confinePolicy(r.tmp.path)
	ll.Scoped = true
	b.WriteString(confine.Status(ll).String())
	return b.String()
}

// cacheEnv points the usual build caches into the session's temporary
// directory, since confined commands cannot write the user's (~/.cache
// is read-only to them, and a cache shared with unconfined builds could be
// poisoned): XDG_CACHE_HOME (pip and most tools), GOCACHE and npm's cache.
// A variable Options.Env sets is left alone.
func (r *Runtime) cacheEnv(env []string, tempDir string) []string {
	cache := filepath.Join(tempDir, "cache")
	for _, kv := range [][2]string{
		{"XDG_CACHE_HOME", cache},
		{"GOCACHE", filepath.Join(cache, "go-build")},
		{"npm_config_cache", filepath.Join(cache, "npm")},
	} {
		if _, set := r.opts.Env[kv[0]]; set {
			continue
		}
		env = slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, kv[0]+"=") })
		env = append(env, kv[0]+"="+kv[1])
	}
	return env
}
