package rebalance

import (
	"context"
	"log/slog"
)

// warnings is the default log handler: records at warning level and above
// go to [slog.Default] as it is when they happen, the rest nowhere, so that
// what a user must know reaches them with no logger configured and nothing
// is printed per rebalance.
type warnings struct{ attrs []slog.Attr }

func (warnings) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn && slog.Default().Enabled(ctx, level)
}

func (h warnings) Handle(ctx context.Context, r slog.Record) error {
	return slog.Default().Handler().WithAttrs(h.attrs).Handle(ctx, r)
}

func (h warnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return warnings{attrs: append(h.attrs[:len(h.attrs):len(h.attrs)], attrs...)}
}

// WithGroup is not supported by this handler: the kit's records use no
// groups; a group's attributes land at the top level.
func (h warnings) WithGroup(string) slog.Handler { return h }
