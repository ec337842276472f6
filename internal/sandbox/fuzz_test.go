package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzResolve resolves random paths in the tree of resolveFixture, whose
// symlinks lead inside, outside, into the other root, in loops and nowhere.
// Whatever the input, Resolve must not panic, must fail with an *Error, and a
// path it accepts must lie inside a root, free of symlinks, and not denied.
func FuzzResolve(f *testing.F) {
	base, s := resolveFixture(f)
	root := filepath.Join(base, "root")
	mkTree(f, base,
		"root/link_up -> ..",
		"root/link_self -> .",
		"root/dir/link_chain -> ../link_in",
		"root/dir/link_to_git -> ../.git",
		"other/link_deep -> ../root/dir/sub/../../link_out",
	)
	for _, seed := range [][2]string{
		{"", "file.txt"}, {"dir", "../file.txt"}, {"", "../outside/secret.txt"},
		{"", "link_in/f.txt"}, {"", "link_out/secret.txt"}, {"", "link_other"},
		{"", "link_otherdir/back"}, {"", "dangling_in"}, {"", "dangling_out"},
		{"", "loop1"}, {"", ".env"}, {"", "link_env"}, {"", "keys/id.pem"},
		{"", ".git/config"}, {"", "link_up/outside/secret.txt"}, {"", "link_self/link_self/.env"},
		{"dir", "link_chain/f.txt"}, {"dir", "link_to_git/config"}, {"", "/etc/passwd"},
		{base, "root2/x"}, {base + "/other", "link_deep/secret.txt"}, {"", "file.txt/"},
		{"", "~/x"}, {"..", "root/file.txt"}, {"", "a\x00b"}, {"", "link_missing_dotdot"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, cwd, p string) {
		if !filepath.IsAbs(cwd) {
			cwd = filepath.Join(root, cwd)
		}
		got, err := s.Resolve(cwd, p)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Resolve(%q, %q): %T is not an *Error: %v", cwd, p, err, err)
			}
			return
		}
		ri, rel, ok := s.Contains(got.Abs)
		if !ok || ri != got.Root || rel != got.Rel || got.Abs != filepath.Clean(got.Abs) {
			t.Fatalf("Resolve(%q, %q) = %+v: not inside root %d as %q", cwd, p, got, ri, rel)
		}
		if s.Denied(got.Abs) || s.Denied(got.Req) {
			t.Fatalf("Resolve(%q, %q) = %+v: denied", cwd, p, got)
		}
		// Ask the kernel: the part of Abs that exists has no symlink in it.
		existing := got.Abs
		for {
			if _, err := os.Lstat(existing); err == nil {
				break
			}
			existing = filepath.Dir(existing)
		}
		if got.Exists && existing != got.Abs {
			t.Fatalf("Resolve(%q, %q) = %+v: says it exists, but it does not", cwd, p, got)
		}
		real, err := filepath.EvalSymlinks(existing)
		if err != nil || real != existing {
			t.Fatalf("Resolve(%q, %q) = %+v: %s is really %s (%v)", cwd, p, got, existing, real, err)
		}
		if _, _, ok := s.Contains(existing); !ok {
			t.Fatalf("Resolve(%q, %q) = %+v: the existing part %s is outside the roots", cwd, p, got, existing)
		}
	})
}

func BenchmarkResolve(b *testing.B) {
	base, s := resolveFixture(b)
	root := filepath.Join(base, "root")
	for _, p := range []string{"file.txt", "dir/sub/f.txt", "link_in/f.txt", "link_other", "a/b/c/new.txt", ".env"} {
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				s.Resolve(root, p)
			}
		})
	}
}
