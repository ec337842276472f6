package hands

import "github.com/hands-dev/hands/tool"

// Code is a tool error code; a failed Result carries one. The set is
// closed: tool.Codes lists it.
type Code = tool.Code

// The error codes of seed 000 and of Hands, for callers that branch on them.
var (
	InvalidInput          = tool.InvalidInput
	PathNotFound          = tool.PathNotFound
	AccessDenied          = tool.AccessDenied
	FileTooLarge          = tool.FileTooLarge
	IOError               = tool.IOError
	InternalError         = tool.InternalError
	UnknownTool           = tool.UnknownTool
	Canceled              = tool.Canceled
	PermissionDenied      = tool.PermissionDenied
	FileNotViewed         = tool.FileNotViewed
	FileChanged           = tool.FileChanged
	BinaryFile            = tool.BinaryFile
	BashEmptyCommand      = tool.BashEmptyCommand
	BashStartFailed       = tool.BashStartFailed
	BashTaskLimit         = tool.BashTaskLimit
	BashTaskNotFound      = tool.BashTaskNotFound
	CommandRejected       = tool.CommandRejected
	CommandFailed         = tool.CommandFailed
	StrReplaceNotFound    = tool.StrReplaceNotFound
	StrReplaceAmbiguous   = tool.StrReplaceAmbiguous
	GrepInvalidPattern    = tool.GrepInvalidPattern
	GrepInvalidOutputMode = tool.GrepInvalidOutputMode
	GlobInvalidPattern    = tool.GlobInvalidPattern
	GlobInvalidType       = tool.GlobInvalidType
	NetworkBlocked        = tool.NetworkBlocked
	NetworkError          = tool.NetworkError
	HTTPError             = tool.HTTPError
	UnsupportedContent    = tool.UnsupportedContent
	ResponseTooLarge      = tool.ResponseTooLarge
	SearchNotConfigured   = tool.SearchNotConfigured
	SearchFailed          = tool.SearchFailed
	LoopNotFound          = tool.LoopNotFound
	LoopEnded             = tool.LoopEnded
	LoopTimeout           = tool.LoopTimeout
	NoCoordinator         = tool.NoCoordinator
	MCPServerError        = tool.MCPServerError
	MCPServerUnavailable  = tool.MCPServerUnavailable
	ModelNotConfigured    = tool.ModelNotConfigured
	AgentFailed           = tool.AgentFailed
	LSPServerUnavailable  = tool.LSPServerUnavailable
	LSPServerError        = tool.LSPServerError
)
