package kgoassignor

import (
	"context"
	"log/slog"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
)

// routeHandler is the balancer's default log handler (Config.Logger nil):
// records go to the logger of the client the balancer is bound to, at
// kgo's level for the record's and with "kgoassignor: " before the message, or, while no client with a logger is bound,
// warnings and errors go to [slog.Default] and the rest nowhere — so that a
// warning that matters most before a client is bound (the balancer was
// never passed to kgo.WithHooks) still reaches the user.
type routeHandler struct {
	clients *clients
	attrs   []slog.Attr
	group   string
}

func (h *routeHandler) Enabled(ctx context.Context, level slog.Level) bool {
	if l := h.clients.logger(); l != nil {
		return kgoLevel(level) <= l.Level()
	}
	return level >= slog.LevelWarn && slog.Default().Enabled(ctx, level)
}

func (h *routeHandler) Handle(ctx context.Context, r slog.Record) error {
	l := h.clients.logger()
	if l == nil {
		if r.Level < slog.LevelWarn {
			return nil
		}
		d := slog.Default().Handler().WithAttrs(h.attrs)
		if h.group != "" {
			d = d.WithGroup(h.group)
		}
		return d.Handle(ctx, r)
	}
	keyvals := make([]any, 0, 2*(len(h.attrs)+r.NumAttrs()))
	for _, a := range h.attrs {
		keyvals = append(keyvals, a.Key, a.Value.Any())
	}
	r.Attrs(func(a slog.Attr) bool {
		key := a.Key
		if h.group != "" {
			key = h.group + "." + key
		}
		keyvals = append(keyvals, key, a.Value.Any())
		return true
	})
	l.Log(kgoLevel(r.Level), "kgoassignor: "+r.Message, keyvals...) // told apart from kgo's own lines
	return nil
}

func (h *routeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(slices.Clip(h.attrs), attrs...)
	return &c
}

func (h *routeHandler) WithGroup(name string) slog.Handler {
	c := *h
	if c.group != "" {
		name = c.group + "." + name
	}
	c.group = name
	return &c
}

// kgoLevel is kgo's level for an slog level.
func kgoLevel(level slog.Level) kgo.LogLevel {
	switch {
	case level >= slog.LevelError:
		return kgo.LogLevelError
	case level >= slog.LevelWarn:
		return kgo.LogLevelWarn
	case level >= slog.LevelInfo:
		return kgo.LogLevelInfo
	}
	return kgo.LogLevelDebug
}
