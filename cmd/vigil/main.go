// Command vigil is Vigil's one binary: the daemon (vigil serve) and the tools
// around it (diff, patch, compose, sentinel, user, bench, export, import).
//
// This is the only package where the libraries, the services and the adapters
// meet. Each subcommand lives in a file of its own and registers itself in
// the command table below from an init function.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/vigil-web/vigil"
)

// Exit codes, as diff(1) uses them.
const (
	exitOK      = 0 // success, or no differences
	exitChanged = 1 // differences found (diff), or problems reported (check)
	exitError   = 2 // trouble: bad arguments, unreadable input, internal error
	// exitInterrupted and exitTerminated end a command stopped by SIGINT
	// or SIGTERM (see command.exitOnInterrupt), as a shell reports a
	// process killed by the signal.
	exitInterrupted = 130
	exitTerminated  = 143
)

// command is one subcommand of vigil.
type command struct {
	name    string // first word on the command line; may be "sentinel check"
	summary string // one line for the usage text
	// run executes the command with the arguments after its name. It returns
	// the exit code; an error is printed to stderr and exits with exitError.
	run func(ctx context.Context, env *environment, args []string) (int, error)
	// exitOnInterrupt marks a command that does not watch ctx and has
	// nothing to clean up (a diff, a patch: computation on its input, to
	// standard output): SIGINT or SIGTERM ends the process at once rather
	// than when the command is done.
	exitOnInterrupt bool
}

// environment is what a command may touch of the outside world, so that tests
// can run commands in-process.
type environment struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

var commands = map[string]*command{}

// register adds c to the command table; it is called from init functions.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("vigil: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	// The first SIGINT or SIGTERM ends the context of the command (or the
	// process, for a command marked exitOnInterrupt); the later ones are
	// caught, not left to kill the process while it stops.
	ctx, cancel := context.WithCancelCause(context.Background())
	env := &environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	finished := make(chan struct{})
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	c, _ := lookup(os.Args[1:])
	atOnce := c != nil && c.exitOnInterrupt
	go func() {
		select {
		case sig := <-sigs:
			if !atOnce {
				cancel(interrupted{sig})
				return
			}
			select {
			case <-finished: // the command ended first: its code stands
				return
			default:
			}
			fmt.Fprintf(os.Stderr, "vigil: %v\n", sig)
			os.Exit(signalCode(sig))
		case <-finished:
		}
	}()
	code := run(ctx, env, os.Args[1:])
	close(finished)
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}

// interrupted is the cause of the context of a command stopped by a
// signal (context.Cause).
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return e.sig.String() + " signal received" }

// signalCode is the exit code of a process stopped by sig, as a shell
// reports one killed by it: 143 for SIGTERM, else 130 (SIGINT).
func signalCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// lookup returns the command that args names and the arguments after its
// name, or nil. Two-word commands ("sentinel check") take precedence over
// one-word ones.
func lookup(args []string) (*command, []string) {
	if len(args) == 0 {
		return nil, nil
	}
	if len(args) > 1 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c, args[2:]
		}
	}
	return commands[args[0]], args[1:]
}

// run dispatches args to a subcommand and returns the process exit code.
func run(ctx context.Context, env *environment, args []string) int {
	// Every command's output is checked once, here: a write that fails
	// (a full disk) is the command's error, exit status 2, unless it
	// has one of its own, so that a password printed "only now", a
	// sentinel's problems or a feed path lost is not taken for output
	// written (vigil user add exited 0, the password shown to nobody).
	out := &stickyWriter{w: env.stdout}
	written := *env
	written.stdout = out
	env = &written
	code := dispatch(ctx, env, args)
	if out.err != nil && code != exitError && code < exitInterrupted {
		name := "vigil"
		if c, _ := lookup(args); c != nil {
			name += " " + c.name
		}
		fmt.Fprintf(env.stderr, "%s: %v\n", name, out.err)
		return exitError
	}
	return code
}

// dispatch runs the subcommand args name and returns its exit code.
func dispatch(ctx context.Context, env *environment, args []string) int {
	if len(args) == 1 && args[0] == "--version" {
		args = []string{"version"}
	}
	if len(args) > 1 && args[0] == "help" {
		// vigil help diff: the command's own help, as vigil diff -h.
		args = append(slices.Clip(args[1:]), "-h")
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.stdout)
		if len(args) == 0 {
			return exitError
		}
		return exitOK
	}
	c, rest := lookup(args)
	if c == nil && isGroup(args[0]) && (len(args) == 1 || wantsHelp(args[1:])) {
		// vigil sentinel, vigil bench -h: the commands of the group.
		if len(args) == 1 {
			groupUsage(env.stderr, args[0])
			return exitError
		}
		groupUsage(env.stdout, args[0])
		return exitOK
	}
	if c == nil {
		// Name the second word too only where the first starts commands
		// of two words (vigil bench nonsense).
		name, list := args[0], "vigil help"
		for known := range commands {
			if len(args) > 1 && strings.HasPrefix(known, args[0]+" ") {
				// The group's own list has its commands.
				name, list = name+" "+args[1], "vigil "+args[0]+" --help"
				break
			}
		}
		fmt.Fprintf(env.stderr, "vigil: unknown command %q; run '%s' for the list\n", name, list)
		return exitError
	}
	if wantsHelp(rest) {
		// Help asked for goes to standard output, as it does for vigil
		// help; the usage of a mistaken command line stays on stderr.
		helped := *env
		helped.stderr = env.stdout
		env = &helped
	}
	code, err := c.run(ctx, env, rest)
	var stopped interrupted
	if errors.As(context.Cause(ctx), &stopped) && (err != nil || code == exitError) {
		// Stopped by the signal, its cleanup done: the exit code says so,
		// as a shell reports a process the signal killed, and so does
		// the error (most often the context's cancellation).
		if err != nil && !errors.Is(err, errUsageShown) {
			msg := errorText(err)
			if !strings.Contains(msg, "interrupted") {
				msg = "interrupted: " + msg
			}
			fmt.Fprintf(env.stderr, "vigil %s: %s\n", c.name, msg)
		}
		return signalCode(stopped.sig)
	}
	if err != nil {
		if !errors.Is(err, errUsageShown) {
			fmt.Fprintf(env.stderr, "vigil %s: %s\n", c.name, errorText(err))
		}
		return exitError
	}
	return code
}

// stickyWriter writes to w until a write fails, and keeps that error.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// errUsageShown is returned by a command whose flag parsing already printed
// the problem and the usage text.
var errUsageShown = errors.New("usage shown")

func usage(w io.Writer) {
	fmt.Fprintln(w, "Vigil watches web pages and sites and reports exactly the changes you asked for.")
	fmt.Fprintln(w, "\nUsage: vigil <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'vigil <command> -h' for the options of a command.")
}

// isGroup reports whether name is the first word of commands of two words
// (sentinel, bench).
func isGroup(name string) bool {
	for known := range commands {
		if strings.HasPrefix(known, name+" ") {
			return true
		}
	}
	return false
}

// groupUsage lists the commands of a group.
func groupUsage(w io.Writer, group string) {
	fmt.Fprintf(w, "Usage: vigil %s <command> [arguments]\n\nCommands:\n", group)
	var names []string
	for n := range commands {
		if strings.HasPrefix(n, group+" ") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nRun 'vigil %s <command> -h' for the options of a command.\n", group)
}

// wantsHelp reports whether a command's arguments ask for its help: -h,
// -help or --help first (later, it may be the value of a flag, as in
// "vigil serve --smtp-user -h").
func wantsHelp(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-h", "-help", "--help", "--h":
		return true
	}
	return false
}

// errorText is err as the command line shows it: a domain error in its
// chain by its message alone, without the "vigil: code=... message="
// wrapping of vigil.Error.Error, which is for logs.
func errorText(err error) string {
	text := err.Error()
	var e *vigil.Error
	if errors.As(err, &e) {
		text = strings.Replace(text, e.Error(), e.Message, 1)
	}
	return text
}
