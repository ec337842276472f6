// Package tools holds Hands's built-in tools: one file, one embedded
// description and one testdata folder each. Tools are glue: they decode,
// call an engine (sandbox, textedit, search, jobs) and map the result. Every
// error a tool returns is made with toolErr and carries one of the codes
// below (seed 000).
package tools

import "github.com/hands-dev/hands/tool"

// Code is an error code; see seed 000 for the contract.
type Code = tool.Code

// Cross-tool codes.
const (
	InvalidInput  Code = tool.InvalidInput
	PathNotFound  Code = "PATH_NOT_FOUND"
	AccessDenied  Code = "ACCESS_DENIED"
	FileTooLarge  Code = "FILE_TOO_LARGE"
	IOError       Code = "IO_ERROR"
	InternalError Code = tool.InternalError
	UnknownTool   Code = tool.UnknownTool
	Canceled      Code = tool.Canceled
	// PermissionDenied: a policy or hook refused the call.
	PermissionDenied Code = tool.PermissionDenied
)

// Read-before-write codes.
const (
	// FileNotViewed: the file exists but this session never read it.
	FileNotViewed Code = "FILE_NOT_VIEWED"
	// FileChanged: the file changed on disk since this session read it.
	FileChanged Code = "FILE_CHANGED"
	// BinaryFile: the file is not text and cannot be shown or edited as text.
	BinaryFile Code = "BINARY_FILE"
)

// Bash codes.
const (
	BashEmptyCommand Code = "BASH_EMPTY_COMMAND"
	BashStartFailed  Code = "BASH_START_FAILED"
	BashTaskLimit    Code = "BASH_TASK_LIMIT"
	BashTaskNotFound Code = "BASH_TASK_NOT_FOUND"
	// CommandRejected: the command uses syntax the profile forbids.
	CommandRejected Code = "COMMAND_REJECTED"
	// CommandFailed: the command exited with a non-zero status or timed
	// out. The core never returns it (seed 000: a non-zero exit is not an
	// error); profiles whose documents make a failing command an error
	// (claude, taskdaemon) render the result with it.
	CommandFailed Code = "COMMAND_FAILED"
)

// Str_replace codes.
const (
	StrReplaceNotFound  Code = "STR_REPLACE_NOT_FOUND"
	StrReplaceAmbiguous Code = "STR_REPLACE_AMBIGUOUS"
)

// Grep codes.
const (
	GrepInvalidPattern    Code = "GREP_INVALID_PATTERN"
	GrepInvalidOutputMode Code = "GREP_INVALID_OUTPUT_MODE"
)

// Glob codes.
const (
	GlobInvalidPattern Code = "GLOB_INVALID_PATTERN"
	GlobInvalidType    Code = "GLOB_INVALID_TYPE"
)

// AllCodes lists every code, for documentation and tests.
var AllCodes = []Code{
	InvalidInput, PathNotFound, AccessDenied, FileTooLarge, IOError,
	InternalError, UnknownTool, Canceled, PermissionDenied,
	FileNotViewed, FileChanged, BinaryFile,
	BashEmptyCommand, BashStartFailed, BashTaskLimit, BashTaskNotFound, CommandRejected, CommandFailed,
	StrReplaceNotFound, StrReplaceAmbiguous,
	GrepInvalidPattern, GrepInvalidOutputMode,
	GlobInvalidPattern, GlobInvalidType,
}

// toolErr is the only way a tool makes an error: a code, then a message in
// lower case that names the value involved and, when there is one, the fix.
func toolErr(code Code, format string, args ...any) *tool.Error {
	return tool.Errorf(code, format, args...)
}
