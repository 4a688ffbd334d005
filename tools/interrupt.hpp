#pragma once
// Ctrl-C handling: the signal handler only sets a flag; the driver's loop
// polls it and ends the run cleanly (finish with interrupted = true).

namespace ij {

/// Installs the SIGINT/SIGTERM handler (sigaction, SA_RESETHAND: a second
/// Ctrl-C falls back to the default action and ends the process at once)
/// and ignores SIGPIPE, so that a closed output shows as a write error.
void install_interrupt_handler();

/// True once SIGINT or SIGTERM arrived.
bool interrupt_requested();

/// Lets the driver stop itself the same way (e.g. its output was closed).
void request_interrupt();

} // namespace ij
