package kafka

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the JVM exit when the process that started it does:
// the bench's child processes end with os.Exit when a run outlives its cap.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
