// Command searchbench runs the grep and glob engine (internal/search) on a
// directory and prints the results like ripgrep, so that bench/search.sh
// can time it against rg, rg --files and fd.
//
//	searchbench [-i] [-U] [-l|-c] [-n] [-g GLOB] [-t TYPE] PATTERN DIR
//	searchbench -glob PATTERN DIR
//
// With -q it prints only the number of results and the time on stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/hands-dev/hands/internal/match"
	"github.com/hands-dev/hands/internal/search"
)

type list []string

func (l *list) String() string     { return fmt.Sprint(*l) }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	icase := flag.Bool("i", false, "ignore case")
	multi := flag.Bool("U", false, "multiline (dot matches newline)")
	files := flag.Bool("l", false, "files with matches")
	count := flag.Bool("c", false, "count matching lines")
	lineNum := flag.Bool("n", false, "line numbers")
	globMode := flag.Bool("glob", false, "list files matching a glob instead of grepping")
	quiet := flag.Bool("q", false, "print only the number of results and the time, on stderr")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	repeat := flag.Int("repeat", 1, "run the search this many times (for profiles)")
	var globs, types list
	flag.Var(&globs, "g", "glob filter (repeatable)")
	flag.Var(&types, "t", "file type (repeatable)")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: searchbench [flags] PATTERN DIR")
		os.Exit(2)
	}
	pattern, dir := flag.Arg(0), flag.Arg(1)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	for i := 1; i < *repeat; i++ {
		run(pattern, dir, io.Discard, *icase, *multi, *files, *count, *lineNum, *globMode, globs, types)
	}
	var out io.Writer = os.Stdout
	if *quiet {
		out = io.Discard
	}
	start := time.Now()
	n := run(pattern, dir, out, *icase, *multi, *files, *count, *lineNum, *globMode, globs, types)
	if *quiet {
		fmt.Fprintf(os.Stderr, "%d results in %v\n", n, time.Since(start))
	}
	pprof.StopCPUProfile()
	if n == 0 {
		os.Exit(1)
	}
}

// run does one search and returns the number of results.
func run(pattern, dir string, out io.Writer, icase, multi, files, count, lineNum, globMode bool, globs, types []string) int {
	ctx := context.Background()
	if globMode {
		res, err := search.Glob(ctx, search.GlobOptions{Paths: []string{dir}, Pattern: pattern})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		w := newWriter(out)
		for _, e := range res.Entries {
			w.WriteString(e.Path)
			w.WriteByte('\n')
		}
		w.Flush()
		return len(res.Entries)
	}
	m, err := match.Compile(pattern, match.Options{IgnoreCase: icase, Multiline: multi})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	mode := search.Content
	if files {
		mode = search.FilesWithMatches
	} else if count {
		mode = search.Count
	}
	res, err := search.Grep(ctx, search.Options{Paths: []string{dir}, Matcher: m, Mode: mode, Globs: globs, Types: types})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := search.Render(out, res.Files, search.RenderOptions{Mode: mode, LineNumbers: lineNum}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if mode == search.Content {
		return int(res.Stats.MatchedLines)
	}
	return len(res.Files)
}
