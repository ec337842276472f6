package hands

import "github.com/hands-dev/hands/internal/tools"

// Code is a tool error code; a failed Result carries one.
type Code = tools.Code

// The error codes of seed 000 and of Hands, for callers that branch on them.
const (
	InvalidInput          = tools.InvalidInput
	PathNotFound          = tools.PathNotFound
	AccessDenied          = tools.AccessDenied
	FileTooLarge          = tools.FileTooLarge
	IOError               = tools.IOError
	InternalError         = tools.InternalError
	UnknownTool           = tools.UnknownTool
	Canceled              = tools.Canceled
	PermissionDenied      = tools.PermissionDenied
	FileNotViewed         = tools.FileNotViewed
	FileChanged           = tools.FileChanged
	BinaryFile            = tools.BinaryFile
	BashEmptyCommand      = tools.BashEmptyCommand
	BashStartFailed       = tools.BashStartFailed
	BashTaskLimit         = tools.BashTaskLimit
	BashTaskNotFound      = tools.BashTaskNotFound
	CommandRejected       = tools.CommandRejected
	CommandFailed         = tools.CommandFailed
	StrReplaceNotFound    = tools.StrReplaceNotFound
	StrReplaceAmbiguous   = tools.StrReplaceAmbiguous
	GrepInvalidPattern    = tools.GrepInvalidPattern
	GrepInvalidOutputMode = tools.GrepInvalidOutputMode
	GlobInvalidPattern    = tools.GlobInvalidPattern
	GlobInvalidType       = tools.GlobInvalidType
)
