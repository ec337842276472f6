package tool

import (
	"fmt"
	"slices"
)

// Code is a machine-readable error code such as PATH_NOT_FOUND. Error text
// shown to a model starts with the code in brackets: "[PATH_NOT_FOUND] ...".
//
// The set of codes is closed: a Code can only be one of the values declared
// below (its zero value means "no error"), so a made-up code does not
// compile. A code a tool needs is added here, with a rendering in every
// profile (a test checks that).
type Code struct{ name string }

// String returns the code's name, e.g. "PATH_NOT_FOUND"; "" for the zero Code.
func (c Code) String() string { return c.name }

// IsZero reports whether c is the zero Code, which a successful result has.
func (c Code) IsZero() bool { return c.name == "" }

// MarshalText returns the code's name.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.name), nil }

// UnmarshalText accepts the name of a declared code (or "" for none).
func (c *Code) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = Code{}
		return nil
	}
	k, ok := ParseCode(string(b))
	if !ok {
		return fmt.Errorf("unknown error code %q", b)
	}
	*c = k
	return nil
}

func code(name string) Code { return Code{name} }

// The codes of seed 000 and of Hands.
var (
	// InvalidInput: the arguments do not decode, do not match the schema, or
	// fail a tool's own checks.
	InvalidInput = code("INVALID_INPUT")
	// PathNotFound: the path names nothing.
	PathNotFound = code("PATH_NOT_FOUND")
	// AccessDenied: the path is outside every root or matches a deny
	// pattern.
	AccessDenied = code("ACCESS_DENIED")
	// FileTooLarge: the file is over the size limit for the operation.
	FileTooLarge = code("FILE_TOO_LARGE")
	// IOError: the file system failed; the message names the path and the
	// operation.
	IOError = code("IO_ERROR")
	// InternalError: the tool panicked or failed in a way it did not
	// classify.
	InternalError = code("INTERNAL_ERROR")
	// UnknownTool: no tool of that name is registered or it is disabled.
	UnknownTool = code("UNKNOWN_TOOL")
	// Canceled: the call was cancelled or its deadline passed.
	Canceled = code("CANCELED")
	// PermissionDenied: a policy or a hook refused the call.
	PermissionDenied = code("PERMISSION_DENIED")

	// FileNotViewed: the file exists but this session never read it.
	FileNotViewed = code("FILE_NOT_VIEWED")
	// FileChanged: the file changed on disk since this session read it.
	FileChanged = code("FILE_CHANGED")
	// BinaryFile: the file is not text and cannot be shown or edited as
	// text.
	BinaryFile = code("BINARY_FILE")

	// BashEmptyCommand: the command is empty.
	BashEmptyCommand = code("BASH_EMPTY_COMMAND")
	// BashStartFailed: the shell could not be started.
	BashStartFailed = code("BASH_START_FAILED")
	// BashTaskLimit: too many background jobs are running.
	BashTaskLimit = code("BASH_TASK_LIMIT")
	// BashTaskNotFound: no background job has that id.
	BashTaskNotFound = code("BASH_TASK_NOT_FOUND")
	// CommandRejected: the command uses syntax the session forbids.
	CommandRejected = code("COMMAND_REJECTED")
	// CommandFailed: the command exited with a non-zero status or timed
	// out, in a session whose options make that an error (seed 000 does
	// not: a non-zero exit is a result).
	CommandFailed = code("COMMAND_FAILED")

	// StrReplaceNotFound: the text to replace does not occur.
	StrReplaceNotFound = code("STR_REPLACE_NOT_FOUND")
	// StrReplaceAmbiguous: the text to replace occurs more often than
	// expected.
	StrReplaceAmbiguous = code("STR_REPLACE_AMBIGUOUS")

	// GrepInvalidPattern: the regular expression does not compile.
	GrepInvalidPattern = code("GREP_INVALID_PATTERN")
	// GrepInvalidOutputMode: the output mode is not one of the known ones.
	GrepInvalidOutputMode = code("GREP_INVALID_OUTPUT_MODE")
	// GlobInvalidPattern: the glob does not parse.
	GlobInvalidPattern = code("GLOB_INVALID_PATTERN")
	// GlobInvalidType: the entry type is not file or dir.
	GlobInvalidType = code("GLOB_INVALID_TYPE")

	// NetworkBlocked: a web fetch would reach an address the server's
	// network guard refuses (loopback, private, link-local, metadata).
	NetworkBlocked = code("NETWORK_BLOCKED")
	// NetworkError: a web request failed: the name did not resolve, the
	// connection or TLS failed, the time ran out, or redirects looped.
	NetworkError = code("NETWORK_ERROR")
	// HTTPError: the web server answered with an error status.
	HTTPError = code("HTTP_ERROR")
	// UnsupportedContent: the page is not text, HTML or JSON.
	UnsupportedContent = code("UNSUPPORTED_CONTENT")
	// ResponseTooLarge: the page is over the size a fetch reads.
	ResponseTooLarge = code("RESPONSE_TOO_LARGE")
	// SearchNotConfigured: no web search backend is configured.
	SearchNotConfigured = code("SEARCH_NOT_CONFIGURED")
	// SearchFailed: the search backend failed or refused the search.
	SearchFailed = code("SEARCH_FAILED")
	// LoopNotFound: no loop with that execution id is running, or none
	// has been seen (query_loop, share_data).
	LoopNotFound = code("LOOP_NOT_FOUND")
	// LoopEnded: the loop was running and has ended.
	LoopEnded = code("LOOP_ENDED")
	// LoopTimeout: the loop did not reply in time.
	LoopTimeout = code("LOOP_TIMEOUT")
	// NoCoordinator: the session has no coordinator, so no other loop can
	// be reached.
	NoCoordinator = code("NO_COORDINATOR")

	// MCPServerError: another MCP server behind Hands answered a call
	// with an error (its tool failed, or it refused the request); the
	// message carries the server's words.
	MCPServerError = code("MCP_SERVER_ERROR")
	// MCPServerUnavailable: another MCP server behind Hands is not
	// connected (it failed to start, timed out, or died) and could not be
	// reached for the call.
	MCPServerUnavailable = code("MCP_SERVER_UNAVAILABLE")
	// ModelNotConfigured: a subagent needs a model and none is available:
	// no API key is configured, the host brought none, and the MCP client
	// does not offer sampling.
	ModelNotConfigured = code("MODEL_NOT_CONFIGURED")
	// AgentFailed: a subagent could not finish: its model failed, or it
	// used all its turns, or the agents nest too deep.
	AgentFailed = code("AGENT_FAILED")
	// LSPServerUnavailable: no language server serves the file's
	// extension, or its program is not installed, failed to start, or
	// died during the call (the next call starts it anew).
	LSPServerUnavailable = code("LSP_SERVER_UNAVAILABLE")
	// LSPServerError: the language server answered the query with an
	// error; the message carries its words.
	LSPServerError = code("LSP_SERVER_ERROR")
)

var allCodes = []Code{
	InvalidInput, PathNotFound, AccessDenied, FileTooLarge, IOError,
	InternalError, UnknownTool, Canceled, PermissionDenied,
	FileNotViewed, FileChanged, BinaryFile,
	BashEmptyCommand, BashStartFailed, BashTaskLimit, BashTaskNotFound, CommandRejected, CommandFailed,
	StrReplaceNotFound, StrReplaceAmbiguous,
	GrepInvalidPattern, GrepInvalidOutputMode,
	GlobInvalidPattern, GlobInvalidType,
	NetworkBlocked, NetworkError, HTTPError, UnsupportedContent, ResponseTooLarge,
	SearchNotConfigured, SearchFailed,
	LoopNotFound, LoopEnded, LoopTimeout, NoCoordinator,
	MCPServerError, MCPServerUnavailable,
	ModelNotConfigured, AgentFailed,
	LSPServerUnavailable, LSPServerError,
}

// Codes lists every declared code.
func Codes() []Code { return slices.Clone(allCodes) }

// ParseCode returns the declared code named name.
func ParseCode(name string) (Code, bool) {
	for _, c := range allCodes {
		if c.name == name {
			return c, true
		}
	}
	return Code{}, false
}
