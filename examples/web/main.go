// Command web serves gpuplan's planner as one page, for readers who would
// rather fill a form than run a command: the model (a preset or an uploaded
// config.json), the task and precision, the work in tokens or a traffic target,
// the rental, deadline and budget, and a price list to upload (any format
// pricelist.Read knows; the built-in sample list otherwise). The answer is the
// options table examples/plan prints, the best option's memory per GPU as a bar,
// its time band, cost range and warnings, and for a service the throughput and
// latency curves examples/serve draws.
//
//	go run ./examples/web
//	go run ./examples/web -addr 127.0.0.1:9000
//
// It listens on 127.0.0.1:8080 by default and prints the address it serves on.
// The page is in English or Chinese (?lang=en or ?lang=zh, else the browser's
// Accept-Language, else -lang, whose default main reads from the locale:
// LC_ALL, LC_MESSAGES, LANG), rendered on the server with html/template, and
// works without JavaScript. Its answer is what examples/plan prints, built by
// the same code (internal/report), with the charts of internal/chart.
//
// POST /api/plan takes
//
//	{"request": plan.Request, "offers": [pricing.Offer], "rates": pricing.Rates}
//
// (offers and rates may be left out: the sample list, one currency; the
// request's model may be a preset's name, "llama-3.1-8b"), each part decoded
// strictly, and answers with the plan.Report as JSON (200); when no
// option fits, with the error object plan -json prints (200); with
// {"error": "..."} and 400 for bad input, 413 for a body over the limit, and 503
// with Retry-After when it is busy or a plan runs past its time.
//
// The server holds no state between requests. It bounds what it accepts: the
// request body, each upload, the plans it runs at once and the time each may
// take (see limits). Exit status: 0 after an interrupt (Ctrl-C) has stopped it,
// 1 when it cannot listen, 2 for a bad flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lang := msg.FromEnv(os.Getenv)
	os.Exit(cli.Exit("web", run(ctx, os.Stdout, os.Args[1:], lang), os.Stderr, cli.LangOf(os.Args[1:], lang)))
}

// run listens on -addr, writes the address it serves on to w and serves until
// ctx is done; then it stops accepting, lets the requests in flight finish (for
// at most shutdownGrace) and returns nil.
func run(ctx context.Context, w io.Writer, args []string, lang msg.Lang) error {
	lang = cli.LangOf(args, lang) // the words of the flags and the output
	fs := cli.FlagSet("web")
	addr := fs.String("addr", "127.0.0.1:8080", lang.T("web.flag.addr"))
	cli.LangFlag(fs, &lang)
	if _, err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cli.Usage(w, fs, lang.T("web.help"), lang)
		}
		return err
	}
	s, err := newServer(defaultLimits, lang)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("-addr %s: %w", *addr, err)
	}
	fmt.Fprintf(w, "gpuplan: serving the planner on http://%s/ %s\n", ln.Addr(), lang.T("web.serving"))
	return serve(ctx, ln, s)
}

// shutdownGrace is how long a stopping server waits for the requests in flight.
const shutdownGrace = 5 * time.Second

// serve answers on ln with s until ctx is done, then shuts down gracefully. It
// closes ln.
func serve(ctx context.Context, ln net.Listener, s *server) error {
	hs := &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second, // a slow upload of the largest body
		WriteTimeout:      s.limits.Time + 30*time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
