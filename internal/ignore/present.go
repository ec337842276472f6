package ignore

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A walk's root has the ignore files of the directories above it read
// (ripgrep reads them up to the repository root), and git's global
// excludes file found through git's config files. These change rarely,
// and looking for them took 35 lstats and two config files read and
// parsed per glob or grep of a directory five levels deep: most of a
// glob's own cost. What was found is kept, per directory and per config
// file, with the file's stamp (see stampOf); while the stamp is the same
// one stat answers, and any change of the directory's entries (an ignore
// file created, removed or renamed) or of the file changes it.

// present returns which of the files Node reads dir holds.
func present(dir string) Files {
	st, trusted := stampOf(dir)
	if trusted {
		presentCache.mu.Lock()
		c, ok := presentCache.dirs[dir]
		presentCache.mu.Unlock()
		if ok && c.stamp == st {
			return c.files
		}
	}
	var f Files
	for _, name := range []string{GitignoreName, IgnoreName, RgignoreName, GitDirName} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			f |= FileFlag(name)
		}
	}
	if trusted {
		presentCache.mu.Lock()
		if len(presentCache.dirs) >= maxCached {
			clear(presentCache.dirs)
		}
		presentCache.dirs[dir] = presentEntry{st, f}
		presentCache.mu.Unlock()
	}
	return f
}

// presentCache holds what present found, by directory.
var presentCache = struct {
	mu   sync.Mutex
	dirs map[string]presentEntry
}{dirs: map[string]presentEntry{}}

type presentEntry struct {
	stamp stamp
	files Files
}

// maxCached bounds each cache; a full one is emptied.
const maxCached = 4096

// globalExcludes returns GlobalExcludesFile(), read again only when
// $HOME, $XDG_CONFIG_HOME or one of the two config files it reads has
// changed.
func globalExcludes() string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	key := [2]string{home, xdg}
	var stamps [2]stamp
	trusted := true
	for i, f := range globalConfigs(home, xdg) {
		var ok bool
		if f != "" {
			stamps[i], ok = stampOf(f)
			trusted = trusted && ok
		}
	}
	if trusted {
		globalCache.mu.Lock()
		c := globalCache.c
		globalCache.mu.Unlock()
		if c.valid && c.key == key && c.stamps == stamps {
			return c.path
		}
	}
	path := GlobalExcludesFile()
	if trusted {
		globalCache.mu.Lock()
		globalCache.c = globalEntry{valid: true, key: key, stamps: stamps, path: path}
		globalCache.mu.Unlock()
	}
	return path
}

// globalConfigs returns the config files GlobalExcludesFile reads, "" for
// one it does not.
func globalConfigs(home, xdg string) [2]string {
	var files [2]string
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files[0] = filepath.Join(xdg, "git", "config")
	}
	if home != "" {
		files[1] = filepath.Join(home, ".gitconfig")
	}
	return files
}

var globalCache struct {
	mu sync.Mutex
	c  globalEntry
}

type globalEntry struct {
	valid  bool
	key    [2]string
	stamps [2]stamp
	path   string
}

// racyWindow is how long after a file's last change its stamp is not
// trusted: a change in the same tick of a coarse clock as the stat before
// it would leave the stamp as it was (git's "racily clean" entries).
var racyWindow = 2 * time.Second

// InRepository reports whether dir or a directory above it holds .git
// (a directory or a file), as NewRoot finds the repository root, and from
// the same kept answers. Only the existence of .git is looked at.
func InRepository(dir string) bool {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if present(d)&HasGit != 0 {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
