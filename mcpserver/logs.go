package mcpserver

import (
	"context"
	"log/slog"
)

// sdkLogger is the logger the SDK gets: its info lines (sessions connecting
// and disconnecting, runs starting) are debug detail for a Hands user, and
// a run ended by cancellation is how serve stops on a signal, not an error.
func sdkLogger(log *slog.Logger) *slog.Logger {
	return slog.New(sdkHandler{log.Handler()})
}

type sdkHandler struct{ slog.Handler }

func (h sdkHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.Handler.Enabled(ctx, sdkLevel(level, ""))
}

func (h sdkHandler) Handle(ctx context.Context, r slog.Record) error {
	level := sdkLevel(r.Level, r.Message)
	if !h.Handler.Enabled(ctx, level) {
		return nil
	}
	r.Level = level
	return h.Handler.Handle(ctx, r)
}

func (h sdkHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return sdkHandler{h.Handler.WithAttrs(attrs)}
}

func (h sdkHandler) WithGroup(name string) slog.Handler {
	return sdkHandler{h.Handler.WithGroup(name)}
}

// sdkLevel is the level a Hands log gives an SDK record.
func sdkLevel(level slog.Level, msg string) slog.Level {
	switch {
	case msg == "server run cancelled":
		return slog.LevelDebug
	case level == slog.LevelInfo:
		return slog.LevelDebug
	}
	return level
}
