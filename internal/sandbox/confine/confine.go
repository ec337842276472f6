package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Policy says what confined commands may touch. The zero value confines
// commands to reading, with nothing writable but the devices.
type Policy struct {
	// Disabled switches confinement off: commands run with the server's
	// own rights, and Report says so.
	Disabled bool
	// Roots are the trees commands may write (and read).
	Roots []string
	// TempDir is the session's temporary directory, writable too.
	TempDir string
	// Writable lists further trees commands may write, such as build
	// caches (the go build cache, ~/.npm) a caller chooses to share.
	Writable []string
	// Devices are files commands may read and write whatever the rest of
	// the policy says; nil means DefaultDevices.
	Devices []string
	// DenyRead lists what commands may not read: absolute paths, absolute
	// patterns in filepath.Match syntax (expanded when the Confiner is
	// made), and the sandbox's gitignore-style patterns, which apply inside
	// the roots and are only reported as not enforced (see the package
	// documentation).
	DenyRead []string
	// Scoped also scopes signals and abstract UNIX sockets, where the
	// kernel's Landlock has them (ABI 6): a command can then signal, or
	// connect to an abstract socket of, only processes confined with it.
	Scoped bool `json:"scoped,omitempty"`
	// ResolveUnix keeps commands from connecting to path-based UNIX
	// sockets outside the writable trees but those UnixSockets lists (a
	// socket, or a directory for every socket below it), where the
	// kernel's Landlock has LANDLOCK_ACCESS_FS_RESOLVE_UNIX (ABI 9);
	// Report.ResolveUnix says whether it does.
	ResolveUnix bool     `json:"resolve_unix,omitempty"`
	UnixSockets []string `json:"unix_sockets,omitempty"`
}

// Landlock's right to connect to a UNIX socket by path, from ABI 9
// (uapi/linux/landlock.h).
const (
	accessResolveUnix uint64 = 1 << 16
	resolveUnixABI           = 9
)

// DefaultDevices returns the device files commands may always write.
func DefaultDevices() []string {
	return []string{
		"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
		"/dev/tty", "/dev/ptmx", "/dev/pts",
	}
}

// SecretPaths returns the usual places under home where credentials live,
// for a caller to put in Policy.DenyRead.
func SecretPaths(home string) []string {
	if home == "" {
		return nil
	}
	rel := []string{
		".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker/config.json",
		".config/gcloud", ".config/gh", ".netrc", ".git-credentials",
		".npmrc", ".pypirc", ".cargo/credentials", ".cargo/credentials.toml",
	}
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = filepath.Join(home, r)
	}
	return out
}

// Report says what confinement enforces, for `hands doctor` and the
// start-up message.
type Report struct {
	// Enabled is false when the policy switched confinement off.
	Enabled bool
	// ABI is the kernel's Landlock ABI version; 0 when it has none.
	ABI int
	// Enforced reports whether commands actually run confined.
	Enforced bool
	// Reason says why commands are not confined, when they are not.
	Reason string
	// Write lists the trees commands may write, resolved.
	Write []string
	// Devices lists the device files commands may write.
	Devices []string
	// DenyRead lists the paths commands cannot read.
	DenyRead []string
	// NotEnforced lists the deny entries Landlock cannot express, each
	// followed by why.
	NotEnforced []string
	// Notes holds anything else worth knowing: skipped trees, what
	// Landlock leaves alone.
	Notes []string
	// ResolveUnix reports whether Landlock refuses connections to UNIX
	// sockets by path outside the writable trees and UnixSockets.
	ResolveUnix bool
	UnixSockets []string
}

// String renders the report as a few lines of text.
func (r Report) String() string {
	var b strings.Builder
	switch {
	case r.Enforced:
		fmt.Fprintf(&b, "command confinement: Landlock ABI %d, enforced\n", r.ABI)
	case !r.Enabled:
		fmt.Fprintf(&b, "command confinement: off (%s)\n", r.Reason)
	default:
		fmt.Fprintf(&b, "command confinement: NOT enforced: %s\n", r.Reason)
	}
	if !r.Enforced {
		return b.String()
	}
	fmt.Fprintf(&b, "  write: %s\n", strings.Join(r.Write, ", "))
	fmt.Fprintf(&b, "  devices: %s\n", strings.Join(r.Devices, ", "))
	if len(r.DenyRead) == 0 {
		b.WriteString("  read: everything\n")
	} else {
		fmt.Fprintf(&b, "  read: everything except %s\n", strings.Join(r.DenyRead, ", "))
	}
	if r.ResolveUnix {
		reach := "the writable trees"
		if len(r.UnixSockets) > 0 {
			reach += ", " + strings.Join(r.UnixSockets, ", ")
		}
		fmt.Fprintf(&b, "  UNIX sockets: connecting by path refused (LANDLOCK_ACCESS_FS_RESOLVE_UNIX) but to those in %s\n", reach)
	}
	for _, n := range r.NotEnforced {
		fmt.Fprintf(&b, "  not enforced: %s\n", n)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

const unrestrictedNote = "network, device ioctl, signals and abstract UNIX sockets are not restricted"

// A Confiner confines commands to a policy. It is safe for concurrent use.
type Confiner struct {
	write   []string // resolved writable trees
	unix    []string // resolved sockets and directories to connect to (ResolveUnix)
	devices []string
	deny    []string // resolved paths denied for reading
	handled uint64   // Landlock access rights handled at this ABI
	scoped  uint64   // Landlock scopes at this ABI, when the policy asks
	report  Report
}

// New resolves the policy's paths and checks what the kernel supports. It
// never fails: what cannot be enforced is said in Report.
func New(p Policy) *Confiner {
	c := &Confiner{}
	r := &c.report
	r.Enabled = !p.Disabled
	abi, abiErr := landlockABI()
	r.ABI = abi

	for _, t := range append(append(slices.Clone(p.Roots), p.TempDir), p.Writable...) {
		if t == "" {
			continue
		}
		res, err := resolve(t)
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("writable tree %s skipped: %v", t, err))
			continue
		}
		if !slices.Contains(c.write, res) {
			c.write = append(c.write, res)
		}
	}
	c.devices = p.Devices
	if c.devices == nil {
		c.devices = DefaultDevices()
	}
	c.classifyDeny(p.DenyRead)

	r.Write = slices.Clone(c.write)
	r.Devices = slices.Clone(c.devices)
	r.DenyRead = slices.Clone(c.deny)
	r.Notes = append(r.Notes,
		unrestrictedNote,
		"directory listings are allowed everywhere; only file contents are denied")
	switch {
	case p.Disabled:
		r.Reason = "disabled by configuration"
	case abiErr != nil:
		r.Reason = abiErr.Error()
	default:
		r.Enforced = true
		c.handled = handledAccess(abi)
		if p.Scoped {
			c.scoped = scopes(abi)
		}
		if p.ResolveUnix && abi >= resolveUnixABI && c.handled != 0 {
			c.handled |= accessResolveUnix
			for _, u := range p.UnixSockets {
				if res, err := resolve(u); err == nil && !slices.Contains(c.unix, res) {
					c.unix = append(c.unix, res)
				}
			}
			r.ResolveUnix, r.UnixSockets = true, slices.Clone(c.unix)
		}
	}
	if c.scoped != 0 {
		i := slices.Index(r.Notes, unrestrictedNote)
		r.Notes[i] = "network and device ioctl are not restricted by Landlock; signals and abstract UNIX sockets are scoped to the command"
	}
	return c
}

// Status reports what confinement would enforce for p on this machine.
func Status(p Policy) Report { return New(p).Report() }

// Report returns what this Confiner enforces.
func (c *Confiner) Report() Report {
	r := c.report
	r.Write = slices.Clone(r.Write)
	r.Devices = slices.Clone(r.Devices)
	r.DenyRead = slices.Clone(r.DenyRead)
	r.NotEnforced = slices.Clone(r.NotEnforced)
	r.Notes = slices.Clone(r.Notes)
	r.UnixSockets = slices.Clone(r.UnixSockets)
	return r
}

// Enforced reports whether commands started after RestrictThread run
// confined.
func (c *Confiner) Enforced() bool { return c.report.Enforced }

// classifyDeny sorts the deny entries into paths Landlock can deny and
// entries it cannot, with the reason.
func (c *Confiner) classifyDeny(list []string) {
	r := &c.report
	addPath := func(entry, p string) {
		res, err := resolve(p)
		if err != nil {
			res = filepath.Clean(p) // not there yet: carve its ancestors all the same
		}
		if t, ok := c.writableTree(res); ok {
			r.NotEnforced = append(r.NotEnforced, fmt.Sprintf("%s: inside the writable tree %s, which Landlock cannot carve", entry, t))
			return
		}
		if !slices.Contains(c.deny, res) {
			c.deny = append(c.deny, res)
		}
	}
	for _, raw := range list {
		e := strings.TrimSpace(raw)
		if e == "" || strings.HasPrefix(e, "#") {
			continue
		}
		g := strings.TrimRight(e, "/")
		switch {
		case !filepath.IsAbs(g):
			r.NotEnforced = append(r.NotEnforced, fmt.Sprintf("%s: a pattern inside the roots, which Landlock cannot carve out of a writable tree", e))
		case strings.Contains(g, "**"):
			r.NotEnforced = append(r.NotEnforced, fmt.Sprintf("%s: recursive patterns cannot be expanded into paths", e))
		case strings.ContainsAny(g, `*?[\`):
			matches, err := filepath.Glob(g)
			if err != nil || len(matches) == 0 {
				r.NotEnforced = append(r.NotEnforced, fmt.Sprintf("%s: matched nothing when the policy was made", e))
			}
			for _, m := range matches {
				addPath(e, m)
			}
		default:
			addPath(e, g)
		}
	}
}

// writableTree returns the writable tree that holds p, if any.
func (c *Confiner) writableTree(p string) (string, bool) {
	for _, t := range c.write {
		if within(p, t) {
			return t, true
		}
	}
	return "", false
}

// denied reports whether p is one of the denied paths.
func (c *Confiner) denied(p string) bool { return slices.Contains(c.deny, p) }

// deniedBelow reports whether a denied path lies strictly beneath dir.
func (c *Confiner) deniedBelow(dir string) bool {
	for _, d := range c.deny {
		if d != dir && within(d, dir) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or lies beneath it; both are clean and
// absolute.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// resolve makes p absolute and follows its symbolic links: Landlock rules
// attach to what a path finally names.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
