// Command callbench times single MCP tool calls over stdio, side by side:
// hands serve, the reply floor (bench/cmd/floorserver: a go-sdk server
// that returns a precomputed text of the same size) and, when given,
// @modelcontextprotocol/server-filesystem (Node) and boris. Calls are
// interleaved, one call per server per round, the order rotating every
// round, so that load on a shared machine hits every server alike. It
// prints per case the median wall time of a call seen by the client, the
// median CPU the server spent on it (from /proc/PID/task/*/schedstat, in
// nanoseconds, all threads), the reply's size, and the ratios to the floor.
//
//	callbench -hands BIN -floor BIN [-fs 'node .../dist/index.js'] [-boris BIN]
//	          [-src DIR] [-rounds N] [-cases read3k,read32k,read240k,list,glob,bash]
//
// bench/calls.sh builds the binaries and runs it on $(go env GOROOT)/src.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one MCP server under test, or the bare shell.
type server struct {
	name string
	sess *mcp.ClientSession
	pid  int
	// call returns the tool and arguments for a case, or ok false when the
	// server has no such call.
	call func(c benchCase) (tool string, args any, ok bool)
}

// benchCase is one kind of call.
type benchCase struct {
	name string
	path string // the file or directory the call is about
	glob string // for glob
	// replyChars is the size of the text of Hands's reply, which the
	// floor then returns.
	replyChars int
}

// sample is one timed call.
type sample struct{ wall, cpu time.Duration }

func main() {
	handsBin := flag.String("hands", "", "the hands binary")
	floorBin := flag.String("floor", "", "the floorserver binary")
	fsCmd := flag.String("fs", "", "command line of @modelcontextprotocol/server-filesystem (e.g. 'node /path/dist/index.js'); empty skips it")
	borisBin := flag.String("boris", "", "the boris binary; empty skips it")
	src := flag.String("src", "", "the tree to read (default $(go env GOROOT)/src)")
	rounds := flag.Int("rounds", 200, "calls per server per case")
	cases := flag.String("cases", "read3k,read32k,read240k,list,glob,bash", "comma-separated cases")
	handsArgs := flag.String("hands-args", "", "extra flags for hands serve, space-separated")
	startup := flag.Int("startup", 0, "also time starting each Go server and answering initialize (cold, and once settled), and Hands's first bash call, this many times; with -rounds 0, only that")
	before := flag.String("before", "", "another hands binary (an older build) to time beside -hands, as hands-before")
	flag.Parse()
	if *handsBin == "" || *floorBin == "" {
		fmt.Fprintln(os.Stderr, "usage: callbench -hands BIN -floor BIN [-fs CMD] [-boris BIN] [-src DIR] [-rounds N]")
		os.Exit(2)
	}
	if *src == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			fail(err)
		}
		*src = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	ctx := context.Background()
	all := pickCases(*src, strings.Split(*cases, ","))

	hargs := []string{"serve", "--root", *src}
	if *handsArgs != "" {
		hargs = append(hargs, strings.Fields(*handsArgs)...)
	}
	hands := connect(ctx, "hands", exec.Command(*handsBin, hargs...))
	hands.call = func(c benchCase) (string, any, bool) {
		switch c.name {
		case "list":
			return "view", map[string]any{"path": c.path}, true
		case "glob":
			return "glob", map[string]any{"pattern": c.glob, "path": c.path}, true
		case "bash":
			return "bash", map[string]any{"command": "true"}, true
		}
		return "view", map[string]any{"path": c.path}, true
	}
	// The floor's replies are cut from Go source, as Hands's are.
	corpus := ""
	for _, c := range all {
		if c.name == "read3k" || c.name == "read32k" || c.name == "read240k" {
			corpus = c.path
		}
	}
	floorCmd := exec.Command(*floorBin)
	if corpus != "" {
		floorCmd.Args = append(floorCmd.Args, "-corpus", corpus)
	}
	floor := connect(ctx, "floor", floorCmd)
	floor.call = func(c benchCase) (string, any, bool) {
		return "floor", map[string]any{"n": c.replyChars}, c.name != "bash"
	}
	servers := []*server{hands, floor}
	if *before != "" {
		b := connect(ctx, "hands-before", exec.Command(*before, hargs...))
		b.call = hands.call
		servers = append(servers, b)
	}
	if *fsCmd != "" {
		f := strings.Fields(*fsCmd)
		s := connect(ctx, "server-filesystem", exec.Command(f[0], append(f[1:], *src)...))
		s.call = func(c benchCase) (string, any, bool) {
			switch c.name {
			case "list":
				return "list_directory", map[string]any{"path": c.path}, true
			case "glob":
				return "search_files", map[string]any{"path": c.path, "pattern": c.glob}, true
			case "bash":
				return "", nil, false
			}
			return "read_text_file", map[string]any{"path": c.path}, true
		}
		servers = append(servers, s)
	}
	if *borisBin != "" {
		s := connect(ctx, "boris", exec.Command(*borisBin, "--transport", "stdio", "--workdir", *src))
		s.call = borisCall
		servers = append(servers, s)
	}
	servers = append(servers, &server{name: "bash -c true", call: func(c benchCase) (string, any, bool) { return "", nil, c.name == "bash" }})

	if *startup > 0 {
		cmds := map[string]*exec.Cmd{"hands": exec.Command(*handsBin, hargs...), "floor": exec.Command(*floorBin)}
		if *before != "" {
			cmds["hands-before"] = exec.Command(*before, hargs...)
		}
		timeStartup(ctx, *startup, cmds)
		if *rounds == 0 {
			return
		}
	}
	fmt.Printf("%d rounds per server and case, interleaved; medians. tree %s\n", *rounds, *src)
	fmt.Printf("%-9s %-18s %9s %9s %9s %9s %10s %10s\n", "case", "server", "wall ms", "÷floor", "cpu ms", "÷floor", "text B", "struct B")
	for _, c := range all {
		// The floor returns as many bytes as Hands's text.
		tool, args, _ := hands.call(c)
		res, err := hands.sess.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			fail(err)
		}
		c.replyChars = textLen(res)
		if res.IsError {
			fail(fmt.Errorf("hands %s: %s", c.name, text(res)))
		}
		samples := map[string][]sample{}
		sizes := map[string][2]int{}
		active := slices.DeleteFunc(slices.Clone(servers), func(s *server) bool { _, _, ok := s.call(c); return !ok })
		for r := -3; r < *rounds; r++ { // three warm-up rounds
			for i := range active {
				s := active[(i+max(r, 0))%len(active)]
				smp, size := s.once(ctx, c)
				if r >= 0 {
					samples[s.name] = append(samples[s.name], smp)
					sizes[s.name] = size
				}
			}
		}
		fw, fc := median(samples["floor"])
		for _, s := range active {
			w, cp := median(samples[s.name])
			rw, rc := "", ""
			if fw > 0 {
				rw, rc = fmt.Sprintf("%.2f×", float64(w)/float64(fw)), fmt.Sprintf("%.2f×", float64(cp)/float64(fc))
			}
			fmt.Printf("%-9s %-18s %9.3f %9s %9.3f %9s %10d %10d\n", c.name, s.name, ms(w), rw, ms(cp), rc, sizes[s.name][0], sizes[s.name][1])
		}
	}
}

// once makes one call and returns its times and the reply's text and
// structured sizes.
func (s *server) once(ctx context.Context, c benchCase) (sample, [2]int) {
	if s.sess == nil { // the bare shell
		cmd := exec.Command("bash", "-c", "true")
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			fail(err)
		}
		w := time.Since(t0)
		return sample{w, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, [2]int{}
	}
	tool, args, _ := s.call(c)
	c0 := cpuOf(s.pid)
	t0 := time.Now()
	res, err := s.sess.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	w := time.Since(t0)
	c1 := cpuOf(s.pid)
	if err != nil {
		fail(fmt.Errorf("%s %s: %w", s.name, c.name, err))
	}
	if res.IsError {
		fail(fmt.Errorf("%s %s: %s", s.name, c.name, text(res)))
	}
	st := 0
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		st = len(b)
	}
	return sample{w, c1 - c0}, [2]int{textLen(res), st}
}

// borisCall maps a case to boris's tools.
func borisCall(c benchCase) (string, any, bool) {
	switch c.name {
	case "list":
		return "view", map[string]any{"path": c.path}, true
	case "glob":
		return "glob", map[string]any{"pattern": c.glob, "path": c.path}, true
	case "bash":
		return "bash", map[string]any{"command": "true"}, true
	}
	return "view", map[string]any{"path": c.path}, true
}

// connect starts a server and opens a session with it.
func connect(ctx context.Context, name string, cmd *exec.Cmd) *server {
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "callbench", Version: "1"}, nil)
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fail(fmt.Errorf("starting %s: %w", name, err))
	}
	return &server{name: name, sess: sess, pid: cmd.Process.Pid}
}

// cpuOf returns the CPU time all threads of a process have run, from the
// scheduler's nanosecond counters.
func cpuOf(pid int) time.Duration {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += time.Duration(n)
		}
	}
	return sum
}

// pickCases chooses the files and directories of the cases in the tree:
// the first Go files (in walk order) of about 3.5 KB, 32 KB and 240 KB.
func pickCases(src string, names []string) []benchCase {
	want := map[string]int64{"read3k": 3500, "read32k": 32 << 10, "read240k": 240 << 10}
	found := map[string]string{}
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.Contains(p, "testdata") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		for k, n := range want {
			if _, ok := found[k]; !ok && info.Size() > n*95/100 && info.Size() < n*105/100 {
				found[k] = p
			}
		}
		if len(found) == len(want) {
			return filepath.SkipAll
		}
		return nil
	})
	var out []benchCase
	for _, n := range names {
		switch n {
		case "read3k", "read32k", "read240k":
			if found[n] == "" {
				fail(fmt.Errorf("no file for %s in %s", n, src))
			}
			out = append(out, benchCase{name: n, path: found[n]})
		case "list":
			out = append(out, benchCase{name: n, path: filepath.Join(src, "net", "http")})
		case "glob":
			out = append(out, benchCase{name: n, path: filepath.Join(src, "net", "http"), glob: "**/*_test.go"})
		case "bash":
			out = append(out, benchCase{name: n, path: src})
		default:
			fail(fmt.Errorf("unknown case %q", n))
		}
	}
	for _, c := range out {
		if c.name != "bash" {
			fmt.Printf("%-9s %s\n", c.name, c.path)
		}
	}
	return out
}

func textLen(r *mcp.CallToolResult) int { return len(text(r)) }

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func median(s []sample) (wall, cpu time.Duration) {
	if len(s) == 0 {
		return 0, 0
	}
	w := make([]time.Duration, len(s))
	c := make([]time.Duration, len(s))
	for i, x := range s {
		w[i], c[i] = x.wall, x.cpu
	}
	slices.Sort(w)
	slices.Sort(c)
	return w[len(w)/2], c[len(c)/2]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "callbench:", err)
	os.Exit(1)
}
