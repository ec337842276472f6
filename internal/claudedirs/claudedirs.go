// Package claudedirs says where Claude Code 2.1.7 keeps a project's
// session files, so that the claude profile keeps its own there too:
//
//	CONFIG/projects/SLUG/SESSION/tool-results/   oversized results
//	TEMP/claude/SLUG/tasks/                       background tasks' output
//
// CONFIG is $CLAUDE_CONFIG_DIR, else ~/.claude; TEMP is
// $CLAUDE_CODE_TMPDIR, else /tmp (Claude Code does not read $TMPDIR
// there); SLUG is the project's directory with every character but ASCII
// letters and digits made '-'; SESSION is the session's UUID.
package claudedirs

import (
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// Dirs returns CONFIG and TEMP: config and temp when given, else what the
// environment says, else Claude Code's defaults. CONFIG is "" when there
// is no home directory.
func Dirs(config, temp string) (string, string) {
	if config == "" {
		config = os.Getenv("CLAUDE_CONFIG_DIR")
	}
	if config == "" {
		if home, err := os.UserHomeDir(); err == nil {
			config = filepath.Join(home, ".claude")
		}
	}
	if temp == "" {
		temp = os.Getenv("CLAUDE_CODE_TMPDIR")
	}
	if temp == "" {
		temp = "/tmp"
	}
	return config, temp
}

// Slug is Claude Code's name for a project's directories.
func Slug(dir string) string { return nonAlnum().ReplaceAllString(dir, "-") }

var nonAlnum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9]`) })

// Isolate points $CLAUDE_CONFIG_DIR and $CLAUDE_CODE_TMPDIR at a new
// temporary directory, so that a test binary, and the servers it starts,
// leave the user's ~/.claude and /tmp/claude alone. Call it from
// TestMain; the function it returns removes the directory.
func Isolate() func() {
	dir, err := os.MkdirTemp("", "hands-claude-")
	if err != nil {
		panic(err)
	}
	os.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "config"))
	os.Setenv("CLAUDE_CODE_TMPDIR", dir)
	return func() { os.RemoveAll(dir) }
}
