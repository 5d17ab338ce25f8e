package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/internal/msg"
)

// browser is a headless Chromium driven through the DevTools protocol over
// --remote-debugging-pipe: the browser reads commands from its file descriptor
// 3 and writes answers and events to 4, each a JSON cdpMessage ended by a NUL
// byte. Only the standard library is used.
type browser struct {
	cmd     *exec.Cmd
	in      *os.File // our end of the browser's descriptor 3
	out     *os.File // our end of the browser's descriptor 4
	session string   // the attached page's session

	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpMessage
	events  chan cdpMessage
	done    chan struct{} // closed when the reader stops
	readErr error
}

// cdpMessage is a DevTools protocol cdpMessage: an answer (ID set) or an event
// (Method set).
type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"cdpMessage"`
	} `json:"error,omitempty"`
}

// findChromium returns the path of a Chromium or Chrome on PATH, or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startBrowser starts a headless Chromium at path with a profile in dir and a
// window of width × height pixels, and attaches to a blank page.
func startBrowser(t *testing.T, path, dir string, width, height int) *browser {
	t.Helper()
	cmdR, cmdW, err := os.Pipe() // commands: we write, the browser reads on 3
	if err != nil {
		t.Fatal(err)
	}
	evR, evW, err := os.Pipe() // answers: the browser writes on 4, we read
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
		"--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--disable-background-networking", "--disable-sync", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir="+dir, fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, evW}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	cmdR.Close()
	evW.Close()
	b := &browser{cmd: cmd, in: cmdW, out: evR, pending: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 256), done: make(chan struct{})}
	go b.read()
	t.Cleanup(func() {
		b.in.Close()
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		b.out.Close()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("chromium's standard error (its end):\n%s", tail(stderr.String(), 2000))
		}
	})
	var target struct {
		TargetID string `json:"targetId"`
	}
	b.call(t, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	b.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	b.call(t, b.session, "Page.enable", nil, nil)
	b.call(t, b.session, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	return b
}

// read sorts the browser's messages: answers to their callers, events to
// b.events (dropped when nobody reads them).
func (b *browser) read() {
	defer close(b.done)
	r := bufio.NewReaderSize(b.out, 1<<20)
	for {
		raw, err := r.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			b.mu.Unlock()
			return
		}
		var m cdpMessage
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		select {
		case b.events <- m:
		default:
		}
	}
}

// callTimeout bounds one protocol call.
const callTimeout = 20 * time.Second

// call sends method with params on session ("" for the browser itself) and
// decodes the result into result (nil: ignored); a protocol error or no answer
// within callTimeout fails the test.
func (b *browser) call(t *testing.T, session, method string, params any, result any) {
	t.Helper()
	if err := b.callErr(session, method, params, result); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

func (b *browser) callErr(session, method string, params any, result any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	msg, err := json.Marshal(cdpMessage{ID: id, SessionID: session, Method: method, Params: p})
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("writing to the browser: %w", err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("protocol error %d: %s", m.Error.Code, m.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("the browser closed its pipe: %v", b.readErr)
	case <-time.After(callTimeout):
		return errors.New("no answer within " + callTimeout.String())
	}
}

// waitEvent waits for the page's event method (Page.loadEventFired), for at
// most callTimeout.
func (b *browser) waitEvent(t *testing.T, method string) {
	t.Helper()
	timeout := time.After(callTimeout)
	for {
		select {
		case m := <-b.events:
			if m.Method == method && m.SessionID == b.session {
				return
			}
		case <-b.done:
			t.Fatalf("waiting for %s: the browser closed its pipe", method)
		case <-timeout:
			t.Fatalf("no %s within %v", method, callTimeout)
		}
	}
}

// drain drops the events received so far, so that a wait sees only what
// follows.
func (b *browser) drain() {
	for {
		select {
		case <-b.events:
		default:
			return
		}
	}
}

// navigate loads url in the page and waits for its load event.
func (b *browser) navigate(t *testing.T, url string) {
	t.Helper()
	b.drain()
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	b.call(t, b.session, "Page.navigate", map[string]any{"url": url}, &nav)
	if nav.ErrorText != "" {
		t.Fatalf("navigating to %s: %s", url, nav.ErrorText)
	}
	b.waitEvent(t, "Page.loadEventFired")
}

// eval evaluates a JavaScript expression in the page and decodes its value
// (returned by value: JSON-able) into v.
func (b *browser) eval(t *testing.T, expr string, v any) {
	t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.call(t, b.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res)
	if e := res.ExceptionDetails; e != nil {
		desc := e.Text
		if e.Exception != nil {
			desc = e.Exception.Description
		}
		t.Fatalf("evaluating %q: %s", expr, desc)
	}
	if v != nil {
		if err := json.Unmarshal(res.Result.Value, v); err != nil {
			t.Fatalf("evaluating %q: %v (value %s)", expr, err, res.Result.Value)
		}
	}
}

// setFile puts the file at path into the page's file input with the CSS
// selector sel, as a user choosing it would.
func (b *browser) setFile(t *testing.T, sel, path string) {
	t.Helper()
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	b.call(t, b.session, "DOM.getDocument", nil, &doc)
	var node struct {
		NodeID int `json:"nodeId"`
	}
	b.call(t, b.session, "DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": sel}, &node)
	if node.NodeID == 0 {
		t.Fatalf("no element %s on the page", sel)
	}
	b.call(t, b.session, "DOM.setFileInputFiles", map[string]any{"nodeId": node.NodeID, "files": []string{path}}, nil)
}

// submit clicks the element sel (the form's button) and waits for the page
// that answers.
func (b *browser) submit(t *testing.T, sel string) {
	t.Helper()
	b.drain()
	b.eval(t, fmt.Sprintf("document.querySelector(%q).click(), true", sel), nil)
	b.waitEvent(t, "Page.loadEventFired")
}

// screenshot saves the whole page, as tall as its content, as a PNG at path.
func (b *browser) screenshot(t *testing.T, path string) {
	t.Helper()
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON: encoding/json decodes it into bytes
	}
	b.call(t, b.session, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
	if err := os.WriteFile(path, shot.Data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// startRun runs the command as main does, on a free loopback port, and
// returns the URL it prints ("http://127.0.0.1:43215/"); the command stops when the test ends, and
// must stop cleanly.
func startRun(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		err := run(ctx, pw, []string{"-addr", "127.0.0.1:0"}, msg.EN)
		pw.CloseWithError(io.EOF)
		errc <- err
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("run returned %v after its context was cancelled, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("run did not return within 10s of its context being cancelled")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address run prints: %v (%q)", err, line)
	}
	go io.Copy(io.Discard, pr)
	var url string
	if _, err := fmt.Sscanf(line, "gpuplan: serving the planner on %s", &url); err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("run printed %q, want the loopback address it serves on", line)
	}
	return url
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
