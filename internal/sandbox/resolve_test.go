package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testDeny = []string{".env", "**/*.pem", ".git/**", "secrets/", "/build"}

// resolveFixture builds base/root and base/other as roots, with base/root2
// (a prefix sibling) and base/outside outside them.
func resolveFixture(t testing.TB) (base string, s *Set) {
	base = tempBase(t)
	mkTree(t, base,
		"root/file.txt=file",
		"root/dir/sub/f.txt=f",
		"root/.env=SECRET",
		"root/keys/id.pem=KEY",
		"root/.git/config=git",
		"root/sub/.git/config=nested git",
		"root/build/out=built",
		"root/src/build/x=src",
		"root/secrets/token=t",
		"root/sub/secrets/token=t",
		"root/link_in -> dir/sub",
		"root/link_abs_in -> "+filepath.Join(base, "root/dir"),
		"root/link_out -> ../outside",
		"root/link_out_abs -> "+filepath.Join(base, "outside/secret.txt"),
		"root/link_sibling -> ../root2/x",
		"root/link_other -> ../other/o.txt",
		"root/link_otherdir -> "+filepath.Join(base, "other"),
		"root/dangling_in -> newdir/new.txt",
		"root/dangling_out -> ../outside/new.txt",
		"root/link_env -> .env",
		"root/.git/hooklink -> ../file.txt",
		"root/via_git -> .git/hooklink",
		"root/keys/link_safe -> ../file.txt",
		"root/loop1 -> loop2",
		"root/loop2 -> loop1",
		"root/link_file -> file.txt",
		"root/link_dotdot -> dir/../file.txt",
		"root/link_missing_dotdot -> nothere/../file.txt",
		"root2/x=sibling",
		"outside/secret.txt=OUTSIDE",
		"other/o.txt=other",
		"other/back -> ../root/file.txt",
		"other/private/p.txt=private",
	)
	deny := append(testDeny[:len(testDeny):len(testDeny)], filepath.Join(base, "other/private"))
	s = newSet(t, []string{filepath.Join(base, "root"), filepath.Join(base, "other")}, deny)
	return base, s
}

func TestResolve(t *testing.T) {
	base, s := resolveFixture(t)
	root := filepath.Join(base, "root")
	const ok = Kind(-1)
	tests := []struct {
		name   string
		cwd, p string // cwd relative to base; "" means the default
		abs    string // want, relative to base; "" to skip the check
		root   int
		exists bool
		kind   Kind
	}{
		{"relative", "root", "file.txt", "root/file.txt", 0, true, ok},
		{"absolute", "", filepath.Join(root, "file.txt"), "root/file.txt", 0, true, ok},
		{"default cwd", "", "file.txt", "root/file.txt", 0, true, ok},
		{"relative to cwd", "root/dir", "sub/f.txt", "root/dir/sub/f.txt", 0, true, ok},
		{"root itself", "root", ".", "root", 0, true, ok},
		{"dir with trailing slash", "root", "dir/sub/", "root/dir/sub", 0, true, ok},
		{"file with trailing slash", "root", "file.txt/", "", 0, false, NotDir},
		{"file as directory", "root", "file.txt/x", "", 0, false, NotDir},
		{"dotdot inside", "root", "dir/../file.txt", "root/file.txt", 0, true, ok},
		{"dotdot escape", "root", "../outside/secret.txt", "", 0, false, Denied},
		{"deep dotdot escape", "root", "dir/sub/../../../outside/secret.txt", "", 0, false, Denied},
		{"dotdot to parent", "root", "..", "", 0, false, Denied},
		{"absolute outside", "root", "/etc/passwd", "", 0, false, Denied},
		{"filesystem root", "root", "/", "", 0, false, Denied},
		{"prefix sibling file", "root", filepath.Join(base, "root2/x"), "", 0, false, Denied},
		{"prefix sibling dir", "root", filepath.Join(base, "root2"), "", 0, false, Denied},
		{"prefix sibling relative", "root", "../root2/x", "", 0, false, Denied},
		{"symlink inside", "root", "link_in/f.txt", "root/dir/sub/f.txt", 0, true, ok},
		{"absolute symlink inside", "root", "link_abs_in/sub/f.txt", "root/dir/sub/f.txt", 0, true, ok},
		{"symlink to file", "root", "link_file", "root/file.txt", 0, true, ok},
		{"symlink target with dotdot", "root", "link_dotdot", "root/file.txt", 0, true, ok},
		{"symlink target dotdot after missing", "root", "link_missing_dotdot", "", 0, false, NotFound},
		{"symlink out", "root", "link_out/secret.txt", "", 0, false, Denied},
		{"symlink out, dir itself", "root", "link_out", "", 0, false, Denied},
		{"absolute symlink out", "root", "link_out_abs", "", 0, false, Denied},
		{"symlink to prefix sibling", "root", "link_sibling", "", 0, false, Denied},
		{"symlink into other root", "root", "link_other", "other/o.txt", 1, true, ok},
		{"absolute symlink to other root", "root", "link_otherdir/o.txt", "other/o.txt", 1, true, ok},
		{"symlink back from other root", "other", "back", "root/file.txt", 0, true, ok},
		{"dangling inside", "root", "dangling_in", "root/newdir/new.txt", 0, false, ok},
		{"dangling outside", "root", "dangling_out", "", 0, false, Denied},
		{"missing file", "root", "new.txt", "root/new.txt", 0, false, ok},
		{"missing parents", "root", "a/b/c/new.txt", "root/a/b/c/new.txt", 0, false, ok},
		{"missing with trailing slash", "root", "newdir/", "root/newdir", 0, false, ok},
		{"symlink loop", "root", "loop1", "", 0, false, IO},
		{"deny .env", "root", ".env", "", 0, false, Denied},
		{"deny .env at depth", "root", "dir/.env", "", 0, false, Denied},
		{"deny through symlink", "root", "link_env", "", 0, false, Denied},
		{"deny a symlink on the way", "root", "via_git", "", 0, false, Denied},
		{"deny **/*.pem", "root", "keys/id.pem", "", 0, false, Denied},
		{"deny **/*.pem at top", "root", "x.pem", "", 0, false, Denied},
		{"symlink in denied-looking dir is fine", "root", "keys/link_safe", "root/file.txt", 0, true, ok},
		{"deny .git/**", "root", ".git/config", "", 0, false, Denied},
		{"deny .git/** dir", "root", ".git", "", 0, false, Denied},
		{"anchored .git/** spares nested", "root", "sub/.git/config", "root/sub/.git/config", 0, true, ok},
		{"deny dir pattern", "root", "secrets/token", "", 0, false, Denied},
		{"deny dir pattern nested", "root", "sub/secrets/token", "", 0, false, Denied},
		{"deny dir pattern itself", "root", "secrets", "", 0, false, Denied},
		{"deny anchored", "root", "build/out", "", 0, false, Denied},
		{"anchored spares nested", "root", "src/build/x", "root/src/build/x", 0, true, ok},
		{"deny absolute pattern", "other", "private/p.txt", "", 0, false, Denied},
		{"empty", "root", "", "", 0, false, Invalid},
		{"NUL byte", "root", "a\x00b", "", 0, false, Invalid},
		{"tilde", "root", "~", "", 0, false, Invalid},
		{"tilde slash", "root", "~/.ssh/id_rsa", "", 0, false, Invalid},
		{"tilde in a name is a name", "root", "~x", "root/~x", 0, false, ok},
		{"long missing path", "root", strings.Repeat("a/", 1000) + "f", "", 0, false, ok},
		{"too long path", "root", strings.Repeat("a/", 3000) + "f", "", 0, false, Invalid},
		{"long component", "root", strings.Repeat("x", 300), "", 0, false, IO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := ""
			if tt.cwd != "" {
				cwd = filepath.Join(base, tt.cwd)
			}
			p, err := s.Resolve(cwd, tt.p)
			if tt.kind != ok {
				k, isErr := kindOf(err)
				if !isErr || k != tt.kind {
					t.Fatalf("Resolve(%q) = %+v, %v; want an *Error of kind %v", tt.p, p, err, tt.kind)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.p, err)
			}
			if tt.abs != "" && p.Abs != filepath.Join(base, tt.abs) {
				t.Errorf("Abs = %s, want %s", p.Abs, filepath.Join(base, tt.abs))
			}
			if p.Root != tt.root || p.Exists != tt.exists {
				t.Errorf("Root, Exists = %d, %v; want %d, %v", p.Root, p.Exists, tt.root, tt.exists)
			}
			if want := filepath.Join(s.Roots()[p.Root], filepath.FromSlash(p.Rel)); want != p.Abs {
				t.Errorf("Rel %q does not lead to Abs %s", p.Rel, p.Abs)
			}
		})
	}
}

func TestResolveReq(t *testing.T) {
	base, s := resolveFixture(t)
	p, err := s.Resolve(filepath.Join(base, "root"), "link_in/./f.txt")
	must(t, err)
	if want := filepath.Join(base, "root/link_in/f.txt"); p.Req != want {
		t.Errorf("Req = %s, want %s", p.Req, want)
	}
	if p.Rel != "dir/sub/f.txt" {
		t.Errorf("Rel = %q, want dir/sub/f.txt", p.Rel)
	}
}

func TestResolveRelativeCwd(t *testing.T) {
	_, s := resolveFixture(t)
	if _, err := s.Resolve("root", "file.txt"); !errors.Is(err, ErrInvalid) {
		t.Errorf("relative cwd: err = %v, want ErrInvalid", err)
	}
}

// A root given through a symlink is stored evaluated, and paths spelled
// through the link are still accepted.
func TestResolveRootGivenThroughSymlink(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "real/f.txt=x", "real/.env=s", "alias -> real", "real/link -> "+filepath.Join(base, "alias/f.txt"))
	s := newSet(t, []string{filepath.Join(base, "alias")}, []string{".env"})
	if got, want := s.Roots()[0], filepath.Join(base, "real"); got != want {
		t.Fatalf("Roots()[0] = %s, want %s", got, want)
	}
	p, err := s.Resolve("", filepath.Join(base, "alias/f.txt"))
	must(t, err)
	if p.Abs != filepath.Join(base, "real/f.txt") || !p.Exists {
		t.Errorf("got %+v", p)
	}
	p, err = s.Resolve("", "link")
	must(t, err)
	if p.Abs != filepath.Join(base, "real/f.txt") {
		t.Errorf("symlink to the root's given name: got %+v", p)
	}
	if _, err := s.Resolve("", filepath.Join(base, "alias/.env")); !errors.Is(err, ErrDenied) {
		t.Errorf("deny through the alias: err = %v, want ErrDenied", err)
	}
}

func TestNew(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "a/", "b/", "file=x")
	tests := []struct {
		name  string
		roots []string
		deny  []string
		kind  Kind
	}{
		{"no roots", nil, nil, Invalid},
		{"empty root", []string{""}, nil, Invalid},
		{"missing root", []string{filepath.Join(base, "missing")}, nil, NotFound},
		{"file root", []string{filepath.Join(base, "file")}, nil, NotDir},
		{"bad pattern", []string{filepath.Join(base, "a")}, []string{"[x"}, Invalid},
		{"negation", []string{filepath.Join(base, "a")}, []string{"!x"}, Invalid},
		{"just a slash", []string{filepath.Join(base, "a")}, []string{"/"}, Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.roots, tt.deny)
			if k, isErr := kindOf(err); !isErr || k != tt.kind {
				if s != nil {
					s.Close()
				}
				t.Fatalf("New = %v; want an *Error of kind %v", err, tt.kind)
			}
		})
	}

	s := newSet(t, []string{filepath.Join(base, "b"), filepath.Join(base, "a"), filepath.Join(base, "b/")}, []string{"", "# comment"})
	want := []string{filepath.Join(base, "b"), filepath.Join(base, "a")}
	if got := s.Roots(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Roots() = %v, want %v (in order, once each)", got, want)
	}
}

func TestContains(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "root/inner/", "root2/")
	s := newSet(t, []string{filepath.Join(base, "root"), filepath.Join(base, "root/inner")}, nil)
	tests := []struct {
		abs  string
		root int
		rel  string
		ok   bool
	}{
		{filepath.Join(base, "root"), 0, ".", true},
		{filepath.Join(base, "root/a/b"), 0, "a/b", true},
		{filepath.Join(base, "root/inner/x"), 1, "x", true},
		{filepath.Join(base, "root/inner"), 1, ".", true},
		{filepath.Join(base, "root2/x"), 0, "", false},
		{filepath.Join(base, "root2"), 0, "", false},
		{base, 0, "", false},
		{filepath.Join(base, "root/../root2"), 0, "", false},
		{"relative/path", 0, "", false},
		{"", 0, "", false},
	}
	for _, tt := range tests {
		root, rel, ok := s.Contains(tt.abs)
		if root != tt.root || rel != tt.rel || ok != tt.ok {
			t.Errorf("Contains(%q) = %d, %q, %v; want %d, %q, %v", tt.abs, root, rel, ok, tt.root, tt.rel, tt.ok)
		}
	}
	if rel, ok := within("/", "/etc/passwd"); !ok || rel != "etc/passwd" {
		t.Errorf(`within("/", "/etc/passwd") = %q, %v`, rel, ok)
	}
}

func TestDenied(t *testing.T) {
	base := tempBase(t)
	mkTree(t, base, "r/")
	r := filepath.Join(base, "r")
	tests := []struct {
		pattern string
		rel     string
		want    bool
	}{
		{".env", ".env", true},
		{".env", "a/b/.env", true},
		{".env", ".env/inside", true},
		{".env", ".envrc", false},
		{".env", "env", false},
		{"*.key", "a/b.key", true},
		{"**/*.pem", "a.pem", true},
		{"**/*.pem", "a/b/c.pem", true},
		{"**/*.pem", "a/b/c.pem.txt", false},
		{".git/**", ".git", true},
		{".git/**", ".git/objects/ab", true},
		{".git/**", "a/.git/config", false},
		{".git/**", ".gitignore", false},
		{"secrets/", "secrets", true},
		{"secrets/", "secrets/a", true},
		{"secrets/", "x/secrets/a", true},
		{"/build", "build", true},
		{"/build", "build/x", true},
		{"/build", "src/build", false},
		{"config/*.json", "config/a.json", true},
		{"config/*.json", "x/config/a.json", false},
		{"{a,b}.txt", "d/b.txt", true},
	}
	for _, tt := range tests {
		s := newSet(t, []string{r}, []string{tt.pattern})
		if got := s.Denied(filepath.Join(r, tt.rel)); got != tt.want {
			t.Errorf("pattern %q, path %q: Denied = %v, want %v", tt.pattern, tt.rel, got, tt.want)
		}
	}

	// An absolute pattern is matched against the absolute path.
	s := newSet(t, []string{r}, []string{filepath.Join(r, "private")})
	if !s.Denied(filepath.Join(r, "private/x")) || s.Denied(filepath.Join(r, "public/x")) {
		t.Error("absolute pattern not matched against the absolute path")
	}
	// The root itself is never denied by a relative pattern.
	s = newSet(t, []string{r}, []string{"*"})
	if s.Denied(r) || !s.Denied(filepath.Join(r, "x")) {
		t.Error(`pattern "*" should deny entries, not the root`)
	}
}

func TestErrorMessages(t *testing.T) {
	base, s := resolveFixture(t)
	root, other := filepath.Join(base, "root"), filepath.Join(base, "other")
	tests := []struct {
		p, want string
		is      error
	}{
		{"/etc/passwd", "access denied: /etc/passwd is outside the allowed roots (" + root + ", " + other + ")", ErrDenied},
		{".env", "access denied: " + root + `/.env matches deny pattern ".env"`, ErrDenied},
		{"link_out/secret.txt", "access denied: " + root + "/link_out/secret.txt resolves through the symlink " + root + "/link_out to " + base + "/outside/secret.txt, outside the allowed roots (" + root + ", " + other + ")", ErrDenied},
		{"link_env", "access denied: " + root + "/link_env resolves to " + root + `/.env, which matches deny pattern ".env"`, ErrDenied},
		{"file.txt/x", "resolve " + root + "/file.txt/x: " + root + "/file.txt is not a directory", ErrNotDir},
		{"via_git", "access denied: " + root + "/via_git passes through the symlink " + root + `/.git/hooklink, which matches deny pattern ".git/**"`, ErrDenied},
	}
	for _, tt := range tests {
		_, err := s.Resolve(root, tt.p)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Resolve(%q) error:\n got %v\nwant %s", tt.p, err, tt.want)
		}
		if !errors.Is(err, tt.is) {
			t.Errorf("Resolve(%q): errors.Is(%v) = false", tt.p, tt.is)
		}
	}

	if _, err := New(nil, nil); err == nil || err.Error() != "open root: no root directory given" {
		t.Errorf("New(nil): got %v", err)
	}

	p, err := s.Resolve(root, "new.txt")
	must(t, err)
	_, err = s.Open(p)
	if want := "open " + root + "/new.txt: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("Open missing: got %v, want %s", err, want)
	}
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrDenied) {
		t.Errorf("Open missing: %v should be ErrNotFound and fs.ErrNotExist only", err)
	}
}

// TestOsRootEscapeDetected pins the text of os.Root's unexported escape
// error, which fail maps to Denied.
func TestOsRootEscapeDetected(t *testing.T) {
	_, s := resolveFixture(t)
	forged := Path{Root: 0, Rel: "link_out/secret.txt"}
	f, err := s.Open(forged)
	if err == nil {
		f.Close()
		t.Fatal("opened a file through a symlink out of the root")
	}
	if !errors.Is(err, ErrDenied) {
		t.Errorf("err = %v, want ErrDenied (has os.Root's error text changed?)", err)
	}
}

func TestForgedPath(t *testing.T) {
	_, s := resolveFixture(t)
	tests := []struct {
		name string
		p    Path
		is   error
	}{
		{"zero", Path{}, ErrInvalid},
		{"root out of range", Path{Root: 7, Rel: "file.txt"}, ErrInvalid},
		{"negative root", Path{Root: -1, Rel: "file.txt"}, ErrInvalid},
		{"dotdot", Path{Rel: "../outside/secret.txt"}, ErrDenied},
		{"absolute rel", Path{Rel: "/etc/passwd"}, ErrDenied},
		{"denied", Path{Rel: ".env"}, ErrDenied},
		{"denied dir", Path{Rel: ".git/config"}, ErrDenied},
	}
	for _, tt := range tests {
		f, err := s.Open(tt.p)
		if err == nil {
			f.Close()
		}
		if !errors.Is(err, tt.is) {
			t.Errorf("%s: Open(%+v) = %v, want %v", tt.name, tt.p, err, tt.is)
		}
		if _, err := s.WriteFile(tt.p, []byte("x"), 0o644); !errors.Is(err, tt.is) {
			t.Errorf("%s: WriteFile(%+v) = %v, want %v", tt.name, tt.p, err, tt.is)
		}
	}
}

func TestOperations(t *testing.T) {
	base, s := resolveFixture(t)
	root := filepath.Join(base, "root")
	resolve := func(p string) Path {
		t.Helper()
		rp, err := s.Resolve(root, p)
		must(t, err)
		return rp
	}

	f, err := s.Open(resolve("link_in/f.txt"))
	must(t, err)
	b := make([]byte, 10)
	n, _ := f.Read(b)
	f.Close()
	if string(b[:n]) != "f" {
		t.Errorf("Open through symlink read %q", b[:n])
	}

	f, err = s.OpenFile(resolve("link_other"), os.O_WRONLY|os.O_TRUNC, 0)
	must(t, err)
	_, err = f.WriteString("changed")
	must(t, err)
	f.Close()
	if got, _ := os.ReadFile(filepath.Join(base, "other/o.txt")); string(got) != "changed" {
		t.Errorf("OpenFile through cross-root symlink wrote %q", got)
	}

	fi, err := s.Stat(resolve("link_file"))
	must(t, err)
	if !fi.Mode().IsRegular() {
		t.Errorf("Stat mode = %v", fi.Mode())
	}
	if _, err := s.Lstat(Path{Rel: "link_file"}); err != nil {
		t.Error(err)
	} else if fi, _ := s.Lstat(Path{Rel: "link_file"}); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat does not see the symlink: %v", fi.Mode())
	}

	list, err := s.ReadDir(resolve("."))
	must(t, err)
	for i := 1; i < len(list); i++ {
		if list[i-1].Name() >= list[i].Name() {
			t.Fatalf("ReadDir not sorted: %q before %q", list[i-1].Name(), list[i].Name())
		}
	}
	if _, err := s.ReadDir(resolve("file.txt")); err == nil {
		t.Error("ReadDir of a file succeeded")
	}

	nd := resolve("made/a/b")
	must(t, s.MkdirAll(nd, 0o755))
	if fi, err := os.Stat(nd.Abs); err != nil || !fi.IsDir() {
		t.Errorf("MkdirAll: %v", err)
	}
	must(t, s.Remove(nd))
	if _, err := os.Stat(nd.Abs); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove left %s", nd.Abs)
	}
	if err := s.Remove(resolve(".")); !errors.Is(err, ErrInvalid) {
		t.Errorf("Remove(root) = %v, want ErrInvalid", err)
	}
	if err := s.Remove(resolve("missing")); !errors.Is(err, ErrNotFound) {
		t.Errorf("Remove(missing) = %v, want ErrNotFound", err)
	}
}

func TestClose(t *testing.T) {
	base, s := resolveFixture(t)
	p, err := s.Resolve(filepath.Join(base, "root"), "file.txt")
	must(t, err)
	must(t, s.Close())
	if _, err := s.Stat(p); err == nil {
		t.Error("Stat after Close succeeded")
	} else if _, ok := kindOf(err); !ok {
		t.Errorf("Stat after Close: %T is not an *Error", err)
	}
}
