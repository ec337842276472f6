package tools

import (
	"crypto/sha256"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/hands-dev/hands/internal/jobs"
	"github.com/hands-dev/hands/internal/lsp"
	"github.com/hands-dev/hands/internal/sandbox"
	"github.com/hands-dev/hands/internal/skill"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// State is one session's state as the built-in tools see it. The host puts
// it in tool.Env.Session.
type State struct {
	// FS confines every file access to the roots.
	FS *sandbox.Set
	// Limits are the session's bounds.
	Limits Limits
	// TempDir is the session's own temporary directory.
	TempDir string
	// Ledger records what this session read and wrote.
	Ledger *Ledger
	// StartJobs makes the session's job manager, working in dir; the
	// first shell call makes it, so a session that never runs a command
	// never starts a process. Nil when the host offers no shell.
	StartJobs func(dir string) (*jobs.Manager, error)
	// Todos is the session's task list.
	Todos Todos
	// Coordination is the session's place among other loops (nil
	// without a coordinator until complete_task marks it).
	Coordination *Coordination
	// Behavior holds the switches of the session's profile and host.
	Behavior Behavior
	// Plan is the session's permission mode, for the plan tools; nil when
	// the host has no modes.
	Plan PlanMode
	// Web is how the web tools reach the web; nil when the host offers
	// none.
	Web *Web
	// Model answers web_fetch's prompt; nil when none is available. The
	// host sets it before the session's first call.
	Model model.Model
	// Agents runs the task tool's subagents; nil when no model can.
	Agents Subagents
	// Skills are the skills the skill tool offers.
	Skills []skill.Skill
	// LSP runs the lsp tool's language servers; nil when the host offers
	// none. Close shuts them down before the jobs.
	LSP *lsp.Manager

	mu   sync.Mutex
	cwd  string
	jobs *jobs.Manager
	// commands are the commands of the background tasks, by id.
	commands map[string]string
}

// noteTask records the command of a background task.
func (s *State) noteTask(id, command string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.commands == nil {
		s.commands = map[string]string{}
	}
	s.commands[id] = command
}

// taskCommand returns the command of a background task, or "".
func (s *State) taskCommand(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commands[id]
}

// NewState returns the state of a new session working in the first root.
func NewState(fs *sandbox.Set, limits Limits, tempDir string) *State {
	return &State{FS: fs, Limits: limits, TempDir: tempDir, Ledger: NewLedger(), cwd: fs.Roots()[0]}
}

// Cwd returns the session's working directory: the shell's, which a `cd`
// moves, when the session has a shell.
func (s *State) Cwd() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs != nil {
		return s.jobs.Cwd()
	}
	return s.cwd
}

// errNoShell is the error of a session without a shell.
var errNoShell = errors.New("this session has no shell")

// Jobs returns the session's job manager, making it on first use.
func (s *State) Jobs() (*jobs.Manager, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs != nil {
		return s.jobs, nil
	}
	if s.StartJobs == nil {
		return nil, errNoShell
	}
	m, err := s.StartJobs(s.cwd)
	if err != nil {
		return nil, err
	}
	s.jobs = m
	return m, nil
}

// startedJobs returns the job manager if a shell call has made it.
func (s *State) startedJobs() *jobs.Manager {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jobs
}

// stateOf returns the built-in state of env; a host that runs built-in tools
// without it has a bug.
func stateOf(env *tool.Env) *State {
	if env != nil {
		if s, ok := env.Session.(*State); ok {
			return s
		}
	}
	panic("tools: the call's environment carries no session state")
}

// Ledger records, per resolved path, the file as this session last saw it:
// size, modification time and, when the whole file was read, a content hash.
type Ledger struct {
	mu    sync.Mutex
	files map[string]Seen
}

// Seen is one ledger entry.
type Seen struct {
	Size    int64
	ModTime time.Time
	// Hash is the SHA-256 of the whole content; zero when only part of a
	// large file was read.
	Hash    [32]byte
	Partial bool
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{files: map[string]Seen{}} }

// Record notes that the session has seen path with this content (nil content
// with partial for a windowed read of a large file).
func (l *Ledger) Record(path string, fi os.FileInfo, content []byte, partial bool) {
	s := Seen{Size: fi.Size(), ModTime: fi.ModTime(), Partial: partial}
	if !partial {
		s.Hash = sha256.Sum256(content)
	}
	l.mu.Lock()
	l.files[path] = s
	l.mu.Unlock()
}

// RecordHash is Record of a whole file whose content has the given
// SHA-256 hash.
func (l *Ledger) RecordHash(path string, fi os.FileInfo, hash [sha256.Size]byte) {
	l.mu.Lock()
	l.files[path] = Seen{Size: fi.Size(), ModTime: fi.ModTime(), Hash: hash}
	l.mu.Unlock()
}

// Lookup returns the entry for path.
func (l *Ledger) Lookup(path string) (Seen, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.files[path]
	return s, ok
}

// Clear forgets everything, as a loop's new iteration does (seed 004):
// an edit then needs a fresh read.
func (l *Ledger) Clear() {
	l.mu.Lock()
	clear(l.files)
	l.mu.Unlock()
}

// Forget removes path.
func (l *Ledger) Forget(path string) {
	l.mu.Lock()
	delete(l.files, path)
	l.mu.Unlock()
}

// Unchanged reports whether the file now on disk (fi, content) is the one the
// session saw. The content hash decides when it is known: a file touched but
// not changed is unchanged; size and modification time decide otherwise.
func (s Seen) Unchanged(fi os.FileInfo, content []byte) bool {
	if !s.Partial && content != nil {
		return sha256.Sum256(content) == s.Hash
	}
	return fi.Size() == s.Size && fi.ModTime().Equal(s.ModTime)
}

// Behavior are the switches where the specifications the profiles follow
// differ in what a tool does. The zero value is seed 000's (native)
// behaviour; each profile sets its defaults, and a host may set any of them
// (hands.Options.Behavior).
type Behavior struct {
	// ClaudeSessionFiles keeps oversized results and background jobs'
	// output where Claude Code 2.1.7 keeps them (~/.claude/projects/…/
	// tool-results, /tmp/claude/…/tasks) instead of the session's private
	// directory, so the model sees the paths it knows (package hands).
	ClaudeSessionFiles bool `json:"claude_session_files,omitempty"`
	// WriteWithoutRead lets write replace an existing file this session has
	// not read, or that changed since (seed 001's write_file, seed 002's
	// file_write and seed 004's write_file do not track reads).
	WriteWithoutRead bool `json:"write_without_read,omitempty"`
	// EditWithoutRead lets edit, multi_edit and notebook_edit change a file
	// this session has not read, or that changed since (seed 001's replace).
	EditWithoutRead bool `json:"edit_without_read,omitempty"`
	// ReadFilesOnly makes read refuse a directory (INVALID_INPUT with the
	// detail kind=directory) instead of listing it.
	ReadFilesOnly bool `json:"read_files_only,omitempty"`
	// ReadWholeFile makes a read without offset or limit return the whole
	// file, with no default line count, and refuse (FILE_TOO_LARGE with
	// the details size and max) a file over Limits.ReadWholeBytes instead
	// (Claude Code's Read).
	ReadWholeFile bool `json:"read_whole_file,omitempty"`
	// ReadPastEndIsEmpty makes a read whose offset is past the last line,
	// or whose limit is 0, a result with no lines instead of an
	// INVALID_INPUT error or the default window; TotalLines still counts
	// the file's lines.
	ReadPastEndIsEmpty bool `json:"read_past_end_is_empty,omitempty"`
	// ReadNegativeOffset lets read take an offset below 1, which counts
	// from the end as JavaScript's Array.slice does, the lines numbered
	// from the offset (Claude Code 2.1.7's Read: offset -1 shows the
	// last two lines of a file that ends in a line break, as -1 and 0).
	ReadNegativeOffset bool `json:"read_negative_offset,omitempty"`
	// EditCreatesFile lets edit with an empty old_str create a file that
	// does not exist, holding new_str; on an existing file an empty old_str
	// is refused (INVALID_INPUT with the detail kind=exists) (Claude Code's
	// Edit).
	EditCreatesFile bool `json:"edit_creates_file,omitempty"`
	// EditIdentical lets edit replace old_str with the same text: the
	// occurrences are counted as for any edit and the file is written
	// unchanged (Gemini CLI 0.1.13's replace reports success).
	EditIdentical bool `json:"edit_identical,omitempty"`
	// EditBinary lets edit change a file that holds binary data, byte for
	// byte: only the bytes of the replaced text change (Gemini CLI
	// 0.1.13's replace edits any file). Otherwise such a file is
	// BINARY_FILE.
	EditBinary bool `json:"edit_binary,omitempty"`
	// EditRefusesNotebooks makes edit refuse a .ipynb file (INVALID_INPUT
	// with the detail kind=notebook), pointing to notebook_edit.
	EditRefusesNotebooks bool `json:"edit_refuses_notebooks,omitempty"`
	// GlobAll makes glob list hidden files and files the ignore files
	// exclude, oldest first (Claude Code's Glob).
	GlobAll bool `json:"glob_all,omitempty"`
	// GrepHidden makes grep search hidden files (Claude Code's Grep).
	GrepHidden bool `json:"grep_hidden,omitempty"`
	// GrepByPath orders grep's content and count output by path rather
	// than newest first (ripgrep's order, which Claude Code shows, varies
	// from run to run; by path is the order it gives most).
	GrepByPath bool `json:"grep_by_path,omitempty"`
	// GrepWhole makes grep return every output line (up to head_limit)
	// instead of a page of Limits.GrepChars characters, for a profile that
	// keeps a large result in a file and shows a preview (Claude Code's
	// Grep); a bound of GrepWholeChars still applies.
	GrepWhole bool `json:"grep_whole,omitempty"`
	// GrepBadPatternFindsNothing makes a grep whose pattern does not
	// compile a result with no matches instead of GREP_INVALID_PATTERN
	// (Claude Code's Grep reports what ripgrep found: nothing).
	GrepBadPatternFindsNothing bool `json:"grep_bad_pattern_finds_nothing,omitempty"`
	// GrepWholeLines shows grep's matching lines whole, not cut at
	// Limits.LineChars (Gemini CLI 0.1.13's search_file_content).
	GrepWholeLines bool `json:"grep_whole_lines,omitempty"`
	// GrepDirsOnly makes grep refuse a file as the path to search
	// (INVALID_INPUT with the detail kind=file), as Gemini CLI 0.1.13 does.
	GrepDirsOnly bool `json:"grep_dirs_only,omitempty"`
	// GrepGlobFromPath matches grep's glob filter against the path below
	// the searched directory, so "*.go" names only the files directly in
	// it (Gemini CLI 0.1.13's include, a glob run from that directory),
	// rather than base names at any depth (ripgrep's -g).
	GrepGlobFromPath bool `json:"grep_glob_from_path,omitempty"`
	// SkipDependencyDirs makes glob and grep leave out directories named
	// node_modules or bower_components, as Gemini CLI 0.1.13's glob and
	// search_file_content do whatever the ignore files say.
	SkipDependencyDirs bool `json:"skip_dependency_dirs,omitempty"`
	// GlobRecentThenByName orders glob's matches as Gemini CLI 0.1.13
	// does: files changed in the last day newest first, then the others
	// by path in collation order (a, ä, B), not by modification time.
	GlobRecentThenByName bool `json:"glob_recent_then_by_name,omitempty"`
	// GlobHidden makes glob list hidden files (".env") with the others;
	// .git is still left out.
	GlobHidden bool `json:"glob_hidden,omitempty"`
	// GlobLinks makes glob list the symbolic links among the files, by
	// their own path and modification time, without following them
	// (Gemini CLI 0.1.13's glob); reading one still goes through the
	// sandbox, which refuses a link that leads out of the roots.
	GlobLinks bool `json:"glob_links,omitempty"`
	// GlobIgnoredMatches makes glob's Ignored count only the files the
	// pattern matches that the ignore files left out (Gemini CLI 0.1.13's
	// "(N files were git-ignored)"), rather than every entry left out.
	GlobIgnoredMatches bool `json:"glob_ignored_matches,omitempty"`
	// ListGitIgnoreAsFiles makes list match .gitignore patterns against
	// every entry as a file, as Gemini CLI 0.1.13's list_directory does: a
	// directory that only a directory pattern (build/) ignores is listed,
	// while the files under it stay ignored.
	ListGitIgnoreAsFiles bool `json:"list_gitignore_as_files,omitempty"`
	// SeparateStreams runs shell commands with stdout and stderr apart;
	// otherwise they share one pipe and keep their exact order.
	SeparateStreams bool `json:"separate_streams,omitempty"`
	// RejectSubstitution refuses commands with command substitution (seed
	// 001's rule).
	RejectSubstitution bool `json:"reject_substitution,omitempty"`
	// RejectDollarParen refuses a command whose text holds "$(" anywhere,
	// quoted or not, and nothing else: Gemini CLI 0.1.13's check, which
	// lets backticks and <(...) through (seed 001's gemini profile).
	RejectDollarParen bool `json:"reject_dollar_paren,omitempty"`
	// CommandFailureIsError makes a foreground command that exits non-zero
	// or times out a COMMAND_FAILED error whose Output is the command's
	// result (Claude Code and seed 004 do); otherwise it is a result, as
	// seed 000 says.
	CommandFailureIsError bool `json:"command_failure_is_error,omitempty"`
	// NotebookSourceString makes notebook_edit write a cell's source as
	// one JSON string, and a new cell's members in Claude Code's order
	// (notebook.Edit.SourceString).
	NotebookSourceString bool `json:"notebook_source_string,omitempty"`
	// TaskOutputWhole makes task_output return all of a task's output
	// each time, not only what the previous read left (Claude Code's
	// TaskOutput).
	TaskOutputWhole bool `json:"task_output_whole,omitempty"`
	// FreshShell starts every command afresh in the session's first root
	// (or the directory the call names): a cd is not carried to the next
	// call, and the other tools' working directory stays the root (Gemini
	// CLI 0.1.13's run_shell_command spawns a new bash per command).
	FreshShell bool `json:"fresh_shell,omitempty"`
	// ShellNamedByPath makes the shell's messages start with the path it
	// runs from ("/bin/bash: line 1: …"), as Claude Code's do, instead of
	// its name ("bash: line 1: …"); see jobs.Config.NameByPath.
	ShellNamedByPath bool `json:"shell_named_by_path,omitempty"`
	// ShellRawText shows commands' output with control characters as they
	// are and bytes that are not UTF-8 as U+FFFD, as Claude Code shows it,
	// instead of as \xNN (jobs.Config.RawText).
	ShellRawText bool `json:"shell_raw_text,omitempty"`
	// TimeoutToBackground makes a foreground command that outlives its
	// timeout go on as a background task, its output kept, instead of being
	// killed; the result names the task (Claude Code's Bash). When no more
	// tasks may run, the command is killed as usual.
	TimeoutToBackground bool `json:"timeout_to_background,omitempty"`
	// AllowUnsandboxed lets a call ask to run outside the confinement (seed
	// 003's dangerously_disable_sandbox).
	AllowUnsandboxed bool `json:"allow_unsandboxed,omitempty"`
	// ExitPlanWithoutPlan lets exit_plan_mode ask the user to leave plan
	// mode when no plan was written or given, instead of refusing (Claude
	// Code 2.1.7's ExitPlanMode asks "Exit plan mode?" either way).
	ExitPlanWithoutPlan bool `json:"exit_plan_without_plan,omitempty"`
}

// Close shuts the language servers down, kills the session's jobs and
// releases what it holds.
func (s *State) Close() error {
	if s.LSP != nil {
		s.LSP.Close()
	}
	if m := s.startedJobs(); m != nil {
		return m.Close()
	}
	return nil
}
