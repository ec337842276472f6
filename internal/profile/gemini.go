package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/tool"
)

// gemini is seed 001's surface: Gemini CLI's seven tools, every output and
// error string exactly as the seed writes it (the seed wins over later
// Gemini CLI wording); where the seed is silent, Gemini CLI's own wording.
// The seed gives no descriptions: they follow Gemini CLI's, adjusted to
// what Hands does.
//
// Decisions: read_file's offset is 0-based, as in Gemini CLI; replace's
// expected_replacements defaults to 1; writes and replacements do not need
// a read first (Gemini CLI tracks no reads, and the seed's scenarios write
// without reading); read_file refuses directories (requirement 3); the
// shell keeps stdout and stderr apart and refuses command substitution
// (requirement 5). Older Gemini CLI versions named the path parameters
// path, absolute_path or directory: all three are accepted as aliases.
//
// Where the seed is silent the profile is Gemini CLI core 0.1.13 as its
// oracle (../shared/oracles/gemini) measured it: 168 of its 204 results
// identical. Two groups of misses are deliberate and do not count against
// the 90%: 18 where 0.1.13 refuses a relative path (or an absolute
// shell directory) that the profile resolves within the roots, and 11
// where 0.1.13 reads or greps through a symbolic link out of the root,
// which the sandbox refuses; of the other 175, 168 are identical (96%).
// The 7 left: read decodes Latin-1, a UTF-8 BOM and UTF-16 where 0.1.13
// shows U+FFFD, the BOM or "binary" (3, the core's reading is kept); a
// call without command gets a clear refusal, not 0.1.13's TypeError (1);
// "Background PIDs" stays (none) (1); and 0.1.13's grep lists files in
// the directory order of the disk it ran on (2, marked unstable by the
// oracle).
func gemini(lim tools.Limits) *Profile {
	// pathParam is a path parameter under 0.1.13's name, with the names
	// other Gemini CLI versions used as aliases.
	pathParam := func(name, core, desc string) Param {
		var as []string
		for _, a := range []string{"path", "absolute_path", "file_path", "dir_path", "directory"} {
			if a != name {
				as = append(as, a)
			}
		}
		return Param{Name: name, Core: core, Description: desc, Aliases: as}
	}
	number := `{"type":"number"}`
	return &Profile{
		Name: "gemini",
		Behavior: tools.Behavior{SeparateStreams: true, RejectDollarParen: true,
			WriteWithoutRead: true, EditWithoutRead: true, ReadFilesOnly: true, FreshShell: true,
			ListGitIgnoreAsFiles: true, EditCreatesFile: true,
			GrepWholeLines: true, GrepDirsOnly: true, GrepGlobFromPath: true, SkipDependencyDirs: true,
			GlobRecentThenByName: true, GlobHidden: true, GlobLinks: true, GlobIgnoredMatches: true, EditIdentical: true, EditBinary: true},
		// 0.1.13 reads files up to 20 MB and gives the model a command's
		// whole output; Hands keeps a bound on the output, above what
		// 0.1.13's users met in practice, and saves the rest to a file.
		Limits:        tools.Limits{MaxFileSize: 20 << 20, BashOutputChars: 100000},
		Render:        renderGemini,
		IgnoreUnknown: true,
		Tools: []Entry{
			{Core: "list", Name: "list_directory", Description: desc("gemini/list_directory.md"), Params: []Param{
				pathParam("path", "path", "The absolute path to the directory to list (must be absolute, not relative)"),
				{Name: "ignore", Description: "List of glob patterns to ignore"},
				{Name: "respect_git_ignore", Description: "Optional: Whether to respect .gitignore patterns when listing files. Only available in git repositories. Defaults to true.",
					Aliases: []string{"file_filtering_options"}},
			}, Transform: geminiListArgs},
			{Core: "read", Name: "read_file", Description: desc("gemini/read_file.md"), Params: []Param{
				pathParam("absolute_path", "path", "The absolute path to the file to read (e.g., '/home/user/project/file.txt'). Relative paths are not supported. You must provide an absolute path."),
				{Name: "offset", Schema: number, Description: "Optional: For text files, the 0-based line number to start reading from. Requires 'limit' to be set. Use for paginating through large files."},
				{Name: "limit", Schema: number, Description: "Optional: For text files, maximum number of lines to read. Use with 'offset' to paginate through large files. If omitted, reads the entire file (if feasible, up to a default limit)."},
			}, Transform: geminiReadArgs},
			{Core: "write", Name: "write_file", Description: desc("gemini/write_file.md"), Params: []Param{
				pathParam("file_path", "path", "The absolute path to the file to write to (e.g., '/home/user/project/file.txt'). Relative paths are not supported."),
				{Name: "content", Description: "The content to write to the file."},
			}},
			{Core: "edit", Name: "replace", Description: desc("gemini/replace.md"), Params: []Param{
				pathParam("file_path", "path", "The absolute path to the file to modify. Must start with '/'."),
				{Name: "old_string", Core: "old_str", Description: "The exact literal text to replace, preferably unescaped. For single replacements (default), include at least 3 lines of context BEFORE and AFTER the target text, matching whitespace and indentation precisely. For multiple replacements, specify expected_replacements parameter. If this string is not the exact literal text (i.e. you escaped it) or does not match exactly, the tool will fail."},
				{Name: "new_string", Core: "new_str", Description: "The exact literal text to replace `old_string` with, preferably unescaped. Provide the EXACT text. Ensure the resulting code is correct and idiomatic."},
				{Name: "expected_replacements", Description: "Number of replacements expected. Defaults to 1 if not specified. Use when you want to replace multiple occurrences.", Schema: `{"type":"number","minimum":1}`},
			}, Required: []string{"file_path", "old_string", "new_string"}},
			{Core: "bash", Name: "run_shell_command", Description: desc("gemini/run_shell_command.md"), Params: []Param{
				{Name: "command", Description: "Exact bash command to execute as `bash -c <command>`"},
				{Name: "description", Description: "Brief description of the command for the user. Be specific and concise. Ideally a single sentence. Can be up to 3 sentences for clarity. No line breaks."},
				pathParam("directory", "directory", "(OPTIONAL) Directory to run the command in, if not the project root directory. Must be relative to the project root directory and must already exist."),
			}},
			{Core: "grep", Name: "search_file_content", Description: desc("gemini/search_file_content.md"), Params: []Param{
				{Name: "pattern", Description: `The regular expression (regex) pattern to search for within file contents (e.g., 'function\s+myFunction', 'import\s+\{.*\}\s+from\s+.*').`},
				pathParam("path", "path", "Optional: The absolute path to the directory to search within. If omitted, searches the current working directory."),
				{Name: "include", Core: "glob", Aliases: []string{"include_pattern"}, Description: "Optional: A glob pattern to filter which files are searched (e.g., '*.js', '*.{ts,tsx}', 'src/**'). If omitted, searches all files (respecting potential global ignores)."},
			}, Fixed: map[string]any{"output_mode": "content", "-n": true, "-i": true}},
			{Core: "glob", Name: "glob", Description: desc("gemini/glob.md"), Params: []Param{
				{Name: "pattern", Description: "The glob pattern to match against (e.g., '**/*.py', 'docs/*.md')."},
				pathParam("path", "path", "Optional: The absolute path to the directory to search within. If omitted, searches the root directory."),
				{Name: "case_sensitive", Description: "Optional: Whether the search should be case-sensitive. Defaults to false."},
				{Name: "respect_git_ignore", Description: "Optional: Whether to respect .gitignore patterns when finding files. Only available in git repositories. Defaults to true."},
			}, Transform: geminiGlobArgs},
		},
	}
}

// geminiGlobArgs makes glob case-insensitive unless the call says
// otherwise, as Gemini CLI's glob is.
func geminiGlobArgs(args map[string]json.RawMessage) *tool.Error {
	if _, ok := args["case_sensitive"]; !ok {
		args["case_sensitive"] = json.RawMessage("false")
	}
	return nil
}

// geminiListArgs takes respect_git_ignore from the object later Gemini CLI
// releases wrap it in (file_filtering_options: {respect_git_ignore: …}).
func geminiListArgs(args map[string]json.RawMessage) *tool.Error {
	v, ok := args["respect_git_ignore"]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) {
		return nil
	}
	var opts struct {
		RespectGitIgnore json.RawMessage `json:"respect_git_ignore"`
	}
	if err := json.Unmarshal(v, &opts); err != nil {
		return nil // the core refuses the object in its words
	}
	if opts.RespectGitIgnore == nil {
		delete(args, "respect_git_ignore")
	} else {
		args["respect_git_ignore"] = opts.RespectGitIgnore
	}
	return nil
}

// geminiReadArgs turns Gemini CLI's 0-based offset into the core's 1-based
// line number.
func geminiReadArgs(args map[string]json.RawMessage) *tool.Error {
	v, ok := args["offset"]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(string(v))
	if err != nil {
		return nil // the core refuses a non-integer in its words
	}
	if n < 0 {
		return tool.Errorf(tool.InvalidInput, "offset is %d; give a 0-based line number (0 or more)", n)
	}
	args["offset"] = json.RawMessage(strconv.Itoa(n + 1))
	return nil
}

// geminiInvalid is how Gemini CLI reports parameters it refuses.
const geminiInvalid = "Error: Invalid parameters provided. Reason: "

func renderGemini(r *Rendering) {
	if e := r.Err(); e != nil {
		r.Text(geminiError(r, e))
		return
	}
	switch out := r.Out.(type) {
	case *tools.ListOutput:
		shown := out.Path
		if in, ok := r.In.(tools.ListInput); ok && filepath.IsAbs(in.Path) {
			shown = in.Path // as given, as Gemini CLI shows it
		}
		r.Text(geminiList(out, shown))
	case *tools.ReadOutput:
		if out.Kind == "image" {
			// The image, with the words 0.1.13 gives the model beside it.
			r.Res.Content = append(r.Res.Content, tool.Text(fmt.Sprintf("Binary content of type %s was processed.", out.MIMEType)))
		} else {
			in, _ := r.In.(tools.ReadInput)
			r.Text(geminiRead(out, in.Limit))
		}
	case *tools.WriteOutput:
		if out.Action == "created" {
			r.Text(fmt.Sprintf("Successfully created and wrote to new file: %s.", out.Path))
		} else {
			r.Text(fmt.Sprintf("Successfully overwrote file: %s.", out.Path))
		}
	case *tools.EditOutput:
		if in, ok := r.In.(tools.EditInput); ok && in.OldStr == "" {
			// Only a file the edit created takes an empty old_string.
			r.Text(fmt.Sprintf("Created new file: %s with provided content.", out.Path))
			return
		}
		r.Text(fmt.Sprintf("Successfully modified file: %s (%d replacements).", out.Path, out.Replacements))
	case *tools.BashOutput:
		r.Text(geminiShell(r, out))
	case *tools.GrepOutput:
		r.Text(geminiSearch(r, out))
	case *tools.GlobOutput:
		within := out.Dir
		if in, ok := r.In.(tools.GlobInput); ok && in.Path == "" && len(r.Roots) > 0 {
			// An absolute pattern is searched where it points; Gemini CLI
			// names the directory it was given, the root.
			within = strings.TrimSuffix(r.Roots[0], "/")
		}
		r.Text(geminiGlob(out, within))
	}
}

// geminiError is seed 001's exact error string where it has one; other
// refusals of the input read as Gemini CLI's invalid-parameter message,
// and other failures as the core's message.
func geminiError(r *Rendering, e *tool.Error) string {
	path := r.detail("path")
	dir := r.detail("kind") == "directory"
	if s, ok := geminiPathRefused(r, e); ok {
		return s
	}
	if p := e.Problem; p != nil {
		if s, ok := geminiProblem(r.Entry, p); ok {
			return geminiInvalid + s
		}
	}
	switch r.Entry.Core {
	case "list":
		switch {
		case e.Code == tool.PathNotFound:
			return fmt.Sprintf("Error listing directory: ENOENT: no such file or directory, stat '%s'", path)
		case r.detail("kind") == "file":
			return "Error: Path is not a directory: " + path
		}
	case "read":
		switch {
		case e.Code == tool.BinaryFile:
			return "Cannot display content of binary file: " + r.Rel(path)
		case e.Code == tool.PathNotFound:
			return "File not found: " + path
		case dir:
			return "Path is a directory, not a file: " + path
		case e.Code == tool.FileTooLarge:
			size, _ := strconv.ParseFloat(r.detail("size"), 64)
			limit, _ := strconv.ParseInt(r.detail("max"), 10, 64)
			if size > 0 && limit > 0 {
				return fmt.Sprintf("Error reading file %s: File size exceeds the %dMB limit: %[1]s (%.2[3]fMB)", path, limit>>20, size/(1<<20))
			}
		}
	case "write":
		if dir {
			return geminiInvalid + "Path is a directory, not a file: " + path
		}
	case "edit":
		if r.detail("kind") == "exists" {
			return "File already exists, cannot create: " + path
		}
		if dir {
			return "Error preparing edit: EISDIR: illegal operation on a directory, read"
		}
		switch e.Code {
		case tool.PathNotFound:
			return "File not found: " + path
		case tool.StrReplaceNotFound:
			return fmt.Sprintf("Failed to edit, 0 occurrences found for old_string in %s. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.", path)
		case tool.StrReplaceAmbiguous:
			expected := r.detail("expected")
			if expected == "" {
				expected = "1"
			}
			return fmt.Sprintf("Failed to edit, Expected %s occurrence but found %s for old_string in file: %s", expected, r.detail("count"), path)
		}
	case "bash":
		command := r.detail("command")
		switch e.Code {
		case tool.CommandRejected:
			return fmt.Sprintf("Command rejected: %s\nReason: Command substitution using $() is not allowed for security reasons", r.detail("command"))
		case tool.BashEmptyCommand:
			return fmt.Sprintf("Command rejected: %s\nReason: Command cannot be empty.", command)
		case tool.PathNotFound:
			return fmt.Sprintf("Command rejected: %s\nReason: Directory must exist.", command)
		case tool.InvalidInput:
			if r.detail("kind") == "file" {
				return "spawn ENOTDIR" // node's words when the directory is a file
			}
		case tool.AccessDenied:
			if filepath.IsAbs(r.detail("directory")) {
				return fmt.Sprintf("Command rejected: %s\nReason: Directory cannot be absolute. Must be relative to the project root directory.", command)
			}
		}
	case "grep":
		switch {
		case e.Code == tool.PathNotFound:
			return fmt.Sprintf(geminiInvalid+"Failed to access path stats for %s: Error: ENOENT: no such file or directory, stat '%s'", path, path)
		case r.detail("kind") == "file":
			return fmt.Sprintf(geminiInvalid+"Failed to access path stats for %s: Error: Path is not a directory: %[1]s", path)
		case e.Code == tool.GrepInvalidPattern:
			if s, ok := geminiBadPattern(r.detail("pattern")); ok {
				return geminiInvalid + s
			}
		}
	case "glob":
		switch {
		case e.Code == tool.PathNotFound:
			return geminiInvalid + "Search path does not exist " + path
		case r.detail("kind") == "file":
			return geminiInvalid + "Search path is not a directory: " + path
		case e.Code == tool.InvalidInput && e.Details["pattern"] != nil && strings.TrimSpace(r.detail("pattern")) == "":
			return geminiInvalid + "The 'pattern' parameter cannot be empty."
		}
	}
	if e.Code == tool.InvalidInput {
		return geminiInvalid + e.Message
	}
	return e.Message
}

// geminiProblem words a schema refusal as the JSON Schema validator of
// Gemini CLI 0.1.13 (ajv) does: the first problem, the parameter under its
// exposed name.
func geminiProblem(e Entry, p *tool.Problem) (string, bool) {
	exposed := func(core string) string {
		for _, q := range e.Params {
			if q.core() == core {
				return q.Name
			}
		}
		return core
	}
	at := "params"
	if p.At != "" && p.Kind == tool.Missing {
		return "", false
	}
	switch p.Kind {
	case tool.Missing:
		if len(p.Params) == 0 {
			return "", false
		}
		return fmt.Sprintf("%s must have required property '%s'", at, exposed(p.Params[0])), true
	case tool.WrongType:
		if len(p.Want) == 0 || strings.ContainsAny(p.At, ".[") {
			return "", false
		}
		want := p.Want[0]
		if want == "integer" {
			want = "number" // the exposed schema's type
		}
		return fmt.Sprintf("%s/%s must be %s", at, exposed(p.At), want), true
	case tool.OutOfRange:
		return "", false
	}
	return "", false
}

// geminiPathRefused words, as Gemini CLI 0.1.13 does, a path outside the
// roots and an empty path. Gemini CLI refuses every relative path as not
// absolute; the profile resolves those within the roots, and words as not
// absolute only a relative path that leads outside them.
func geminiPathRefused(r *Rendering, e *tool.Error) (string, bool) {
	given, ok := e.Details["given"].(string)
	if !ok || r.Entry.Core == "bash" {
		return "", false
	}
	_, outside := e.Details["roots"]
	empty := e.Code == tool.InvalidInput && strings.TrimSpace(given) == ""
	if !empty && !(e.Code == tool.AccessDenied && outside) {
		return "", false
	}
	root := ""
	if len(r.Roots) > 0 {
		root = strings.TrimSuffix(r.Roots[0], "/")
	}
	path, rel := r.detail("path"), !filepath.IsAbs(given)
	lexical := filepath.Clean(given)
	if rel {
		lexical = filepath.Join(root, given)
	}
	if !empty && (lexical == root || strings.HasPrefix(lexical, root+"/")) {
		// Inside the roots as written, outside through a symlink: the
		// core's words say which link.
		return "", false
	}
	switch r.Entry.Core {
	case "list":
		if rel {
			return geminiInvalid + "Path must be absolute: " + given, true
		}
		return fmt.Sprintf("%sPath must be within the root directory (%s): %s", geminiInvalid, root, given), true
	case "read":
		if rel {
			return fmt.Sprintf("%sFile path must be absolute, but was relative: %s. You must provide an absolute path.", geminiInvalid, given), true
		}
		return fmt.Sprintf("%sFile path must be within the root directory (%s): %s", geminiInvalid, root, given), true
	case "write", "edit":
		if rel {
			return geminiInvalid + "File path must be absolute: " + given, true
		}
		return fmt.Sprintf("%sFile path must be within the root directory (%s): %s", geminiInvalid, root, given), true
	case "grep":
		if empty {
			return "", false
		}
		return fmt.Sprintf(`%sPath validation failed: Attempted path "%s" resolves outside the allowed root directory "%s".`, geminiInvalid, given, root), true
	case "glob":
		if empty {
			return "", false
		}
		return fmt.Sprintf(`%sSearch path ("%s") resolves outside the tool's root directory ("%s").`, geminiInvalid, path, root), true
	}
	return "", false
}

// geminiList is list_directory's listing: directories first, each marked
// [DIR], then files, each group by name (Gemini CLI's order).
func geminiList(o *tools.ListOutput, shown string) string {
	if len(o.Entries) == 0 && o.Ignored == 0 {
		return fmt.Sprintf("Directory %s is empty.", shown)
	}
	entries := append([]tools.ListEntry(nil), o.Entries...)
	coll := collate.New(language.English)
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].Dir != entries[j].Dir {
			return entries[i].Dir
		}
		return coll.CompareString(entries[i].Name, entries[j].Name) < 0
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Directory listing for %s:\n", shown)
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n")
		}
		if e.Dir {
			b.WriteString("[DIR] ")
		}
		b.WriteString(e.Name)
	}
	if o.More > 0 {
		fmt.Fprintf(&b, "\n\n(%d more entries not shown)", o.More)
	}
	if o.GitIgnored > 0 {
		fmt.Fprintf(&b, "\n\n(%d items were git-ignored)", o.GitIgnored)
	}
	return b.String()
}

// geminiRead is the file's content as it is; a window that ends before
// the end of the file is headed by Gemini CLI 0.1.13's truncation notice
// and shows its lines without a final line break. Like 0.1.13, it counts
// the empty text after a final line break as a line, and asks whether the
// window requested (limit lines from the offset) ends before the file does.
func geminiRead(o *tools.ReadOutput, limit int) string {
	total := o.TotalLines
	if o.EndsWithNewline {
		total++
	}
	cut := false
	if o.CutLines > 0 {
		// 0.1.13's mark on a line cut at the limit, and its notice.
		c := *o
		c.Lines = make([]string, len(o.Lines))
		for i, l := range o.Lines {
			kept, was := tools.UncutLine(l)
			if was {
				kept += "... [truncated]"
				cut = true
			}
			c.Lines[i] = kept
		}
		o = &c
	}
	if !o.More && (limit == 0 || o.StartLine-1+limit >= total) {
		if cut {
			return fmt.Sprintf("[File content partially truncated: some lines exceeded maximum length of %d characters.]\n%s", o.CutAt(), readText(o))
		}
		return readText(o)
	}
	end := o.StartLine + len(o.Lines) - 1
	of := "a longer file"
	if o.TotalLines > 0 {
		of = fmt.Sprintf("%d total lines", total)
	}
	eol := "\n"
	if strings.HasSuffix(o.Encoding, "CRLF") {
		eol = "\r\n"
	}
	return fmt.Sprintf("[File content truncated: showing lines %d-%d of %s. Use offset/limit parameters to view more.]\n%s",
		o.StartLine, end, of, strings.Join(o.Lines, eol))
}

// geminiShell is seed 001's block. Directory is dir_path as given, or
// "(root)" when the command ran in the first root, or the directory
// relative to it.
func geminiShell(r *Rendering, o *tools.BashOutput) string {
	dir := "(root)"
	switch in, _ := r.In.(tools.BashInput); {
	case in.Directory != "":
		dir = in.Directory
	case len(r.Roots) > 0 && o.Directory != strings.TrimSuffix(r.Roots[0], "/"):
		dir = r.Rel(o.Directory)
	}
	orNone := func(s, none string) string {
		if s == "" {
			return none
		}
		return s
	}
	errText, exit, signal := "(none)", strconv.Itoa(o.ExitCode), "(none)"
	if o.Signal != "" {
		exit, signal = "(none)", o.Signal
	}
	if o.TimedOut {
		errText = fmt.Sprintf("Command timed out after %d ms", o.TimeoutMS)
	}
	pgid := "(none)"
	if o.PGID != 0 {
		pgid = strconv.Itoa(o.PGID)
	}
	return fmt.Sprintf("Command: %s\nDirectory: %s\nStdout: %s\nStderr: %s\nError: %s\nExit Code: %s\nSignal: %s\nBackground PIDs: (none)\nProcess Group PGID: %s",
		o.Command, dir,
		orNone(stripANSI(o.Stdout), "(empty)"),
		orNone(stripANSI(o.Stderr), "(empty)"),
		errText, exit, signal, pgid)
}

// ansi matches terminal escape sequences as the strip-ansi package Gemini
// CLI uses does (its ansi-regex pattern).
var ansi = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[\x1b\x{9b}][\[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\x07)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))`)
})

// stripANSI removes terminal escape sequences from command output, as
// Gemini CLI does before the model sees it.
func stripANSI(s string) string { return ansi().ReplaceAllString(s, "") }

// geminiSearch is search_file_content's result: a header, then per file
// its matching lines as L<n>: <text>, files separated by ---.
func geminiSearch(r *Rendering, o *tools.GrepOutput) string {
	where := "."
	filter := ""
	if in, ok := r.In.(tools.GrepInput); ok {
		if in.Path != "" {
			where = in.Path
		}
		if in.Glob != "" {
			filter = fmt.Sprintf(` (filter: "%s")`, in.Glob)
		}
	}
	if o.NumMatches == 0 {
		return fmt.Sprintf(`No matches found for pattern "%s" in path "%s"%s.`, o.Pattern, where, filter)
	}
	var b strings.Builder
	matches := "matches"
	if o.NumMatches == 1 {
		matches = "match"
	}
	fmt.Fprintf(&b, "Found %d %s for pattern \"%s\" in path \"%s\"%s:\n---\n", o.NumMatches, matches, o.Pattern, where, filter)
	for _, f := range o.Files {
		name := f.Path
		if rel, err := filepath.Rel(o.Path, f.Path); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			name = rel
		}
		fmt.Fprintf(&b, "File: %s\n", name)
		for _, l := range f.Lines {
			if l.Match {
				fmt.Fprintf(&b, "L%d: %s\n", l.Number, strings.TrimSpace(l.Text))
			}
		}
		b.WriteString("---\n")
	}
	if o.More {
		fmt.Fprintf(&b, "(more matches not shown: narrow the search with dir_path or include)\n")
	}
	return strings.TrimSpace(b.String())
}

// geminiGlob is glob's result in Gemini CLI 0.1.13's words, with its count
// of the files the pattern matches that .gitignore left out
// (Behavior.GlobIgnoredMatches).
func geminiGlob(o *tools.GlobOutput, within string) string {
	if o.Total == 0 {
		s := fmt.Sprintf(`No files found matching pattern "%s" within %s.`, o.Pattern, within)
		if o.Ignored > 0 {
			s += fmt.Sprintf(" (%d files were git-ignored)", o.Ignored)
		}
		return s
	}
	ignored := ""
	if o.Ignored > 0 {
		ignored = fmt.Sprintf(" (%d additional files were git-ignored)", o.Ignored)
	}
	s := fmt.Sprintf("Found %d file(s) matching \"%s\" within %s%s, sorted by modification time (newest first):\n%s", o.Total, o.Pattern, within, ignored, strings.Join(o.Paths, "\n"))
	if more := o.Total - len(o.Paths); more > 0 {
		s += fmt.Sprintf("\n(%d more not shown: narrow the pattern or dir_path)", more)
	}
	return s
}

// v8Regexp words the RE2 syntax errors that JavaScript's RegExp also
// refuses as V8 does; others (what RE2 alone refuses, such as lookaheads)
// keep the core's words, which say RE2.
func v8Regexp(code syntax.ErrorCode) (string, bool) {
	switch code {
	case syntax.ErrMissingParen:
		return "Unterminated group", true
	case syntax.ErrUnexpectedParen:
		return "Unmatched ')'", true
	case syntax.ErrMissingBracket:
		return "Unterminated character class", true
	case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
		return "Nothing to repeat", true
	case syntax.ErrTrailingBackslash:
		return "\\ at end of pattern", true
	case syntax.ErrInvalidCharRange:
		return "Range out of order in character class", true
	}
	return "", false
}

// geminiBadPattern is 0.1.13's refusal of a pattern JavaScript cannot
// compile.
func geminiBadPattern(pattern string) (string, bool) {
	_, err := syntax.Parse(pattern, syntax.Perl)
	var se *syntax.Error
	if !errors.As(err, &se) {
		return "", false
	}
	why, ok := v8Regexp(se.Code)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("Invalid regular expression pattern provided: %s. Error: Invalid regular expression: /%[1]s/: %s", pattern, why), true
}
