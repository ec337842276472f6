package tools

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/hands-dev/hands/internal/search"
	"github.com/hands-dev/hands/internal/textedit"
)

// This file holds the core's side of the switches Gemini CLI 0.1.13's
// tools need (Behavior.GlobRecentThenByName, GlobIgnoredMatches,
// SkipDependencyDirs, GrepGlobFromPath): how they walk, count and order.

// dependencyDirs are the directories Behavior.SkipDependencyDirs leaves
// out of glob and grep.
var dependencyDirs = []string{"node_modules", "bower_components"}

// searchSkip is the Skip function of a glob or grep walk: what the
// sandbox denies, and the directories the session's switches leave out.
func searchSkip(st *State, hidden bool) func(string, bool) bool {
	deps := st.Behavior.SkipDependencyDirs
	return func(p string, isDir bool) bool {
		if st.FS.Denied(p) {
			return true
		}
		if !isDir {
			return false
		}
		name := filepath.Base(p)
		return deps && slices.Contains(dependencyDirs, name) || hidden && name == ".git"
	}
}

// recentWindow is how recent a file is that Behavior.GlobRecentThenByName
// lists first (Gemini CLI 0.1.13's one day).
const recentWindow = 24 * time.Hour

// sortRecentThenByName orders entries as Gemini CLI 0.1.13's glob does:
// those changed within recentWindow of now newest first, then the others
// by path in English collation order (JavaScript's localeCompare).
func sortRecentThenByName(entries []search.Entry, now time.Time) {
	coll := collate.New(language.English)
	recent := func(e search.Entry) bool { return now.Sub(e.ModTime) < recentWindow }
	slices.SortStableFunc(entries, func(a, b search.Entry) int {
		ra, rb := recent(a), recent(b)
		switch {
		case ra && rb:
			return b.ModTime.Compare(a.ModTime)
		case ra:
			return -1
		case rb:
			return 1
		}
		return coll.CompareString(a.Path, b.Path)
	})
}

// ignoredMatches counts the files the pattern matches that the ignore
// files left out of res: the same search without them, less res.
func ignoredMatches(ctx context.Context, opts search.GlobOptions, res *search.GlobResult) (int64, error) {
	opts.NoIgnore = true
	all, err := search.Glob(ctx, opts)
	if err != nil {
		return 0, err
	}
	return int64(max(len(all.Entries)-len(res.Entries), 0)), nil
}

// anchorGlobs roots each glob filter that names no directory at the
// searched directory ("*.go" becomes "/*.go"), so it matches the files
// directly in it, as a glob run from that directory does; "!" exclusions
// keep their sign.
func anchorGlobs(globs []string) []string {
	out := make([]string, len(globs))
	for i, g := range globs {
		neg := ""
		if len(g) > 0 && g[0] == '!' {
			neg, g = "!", g[1:]
		}
		if len(g) > 0 && g[0] != '/' {
			g = "/" + g
		}
		out[i] = neg + g
	}
	return out
}

// lineCutMark ends a line a read cut at Limits.LineChars.
const lineCutMark = "… [line cut: %d more characters]"

// lineCut matches lineCutMark at the end of a line.
var lineCut = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`… \[line cut: [0-9]+ more characters\]$`) })

// UncutLine returns the text a read kept of a line it cut at the line
// limit, and whether it had cut it; a profile words the cut its own way.
// Only lines of a ReadOutput with CutLines > 0 can have been cut.
func UncutLine(l string) (string, bool) {
	loc := lineCut().FindStringIndex(l)
	if loc == nil {
		return l, false
	}
	return l[:loc[0]], true
}

// CutAt is the line limit the read's cut lines were cut at (see CutLines).
func (o *ReadOutput) CutAt() int { return o.cutAt }

// applyEdit is textedit.Apply, except that under Behavior.EditIdentical an
// edit whose old and new text are the same finds its occurrences as any
// edit does (so a missing or ambiguous old text is still refused) and
// leaves the text as it is.
func applyEdit(st *State, text string, e textedit.Edit) (textedit.Result, error) {
	if !st.Behavior.EditIdentical || e.Old == "" || e.Old != e.New {
		return textedit.ApplyParts(text, e)
	}
	probe := e
	probe.New = e.Old + "\x00" // differs from Old, so Apply counts
	res, err := textedit.ApplyParts(text, probe)
	if err != nil {
		return res, err
	}
	res.Parts = []string{text}
	return res, nil
}
