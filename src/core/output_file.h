// core/output_file.h — the one way strata writes an output file (images,
// CSV, JSON, recordings): complete or not at all, never a lie, never a
// destroyed device.
//   - A regular file (or a new path) is written to a temporary beside it
//     (PATH.tmp-PID), every write and the close checked, fsync'ed, and
//     renamed over PATH only on commit(). Abandoned (destroyed before commit,
//     or a failed write), the temporary is removed and PATH is untouched. A
//     symbolic link keeps pointing where it did: its target is replaced.
//   - A character device (/dev/null, /dev/full, a terminal) is written in
//     place, never replaced; its write errors are reported the same way.
//   - A directory, FIFO, socket or block device is refused at once (a FIFO
//     would block until some reader opened it).
// Every error is a strata::Error naming the path and the system's reason.
// With removeOutputsOnSignal(), a signal that ends the process (Ctrl-C,
// SIGTERM, SIGHUP, or a crash: SIGSEGV, SIGBUS, SIGFPE, SIGABRT) removes the
// open temporaries first, except those marked keepOnSignal(): a log whose
// every write leaves it valid (a recording's whole CSV rows) is moved into
// place with what it holds.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>

namespace strata {

class OutputFile {
public:
    // Opens PATH for writing as above; throws when it cannot (so a run that
    // opens its outputs first fails before doing the work).
    explicit OutputFile(const std::string& path);
    ~OutputFile();  // uncommitted: the temporary is removed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(const void* data, size_t bytes);
    void write(const std::string& s) { write(s.data(), s.size()); }
    // Flushes, syncs and closes, then renames the temporary into place.
    void commit();
    // For a file that is valid after every write() (rows of a log, each one
    // write): a signal that ends the process moves it into place instead of
    // removing it, so a crash keeps what was written. Each write() is one
    // system call, so what was written is in the file, not in a buffer.
    void keepOnSignal();
    // Commits several outputs of one run: every one is flushed, synced and
    // closed before any is renamed, so a late failure leaves none in place
    // (short of a failing rename in the same folder).
    static void commitAll(std::initializer_list<OutputFile*> files);

    const std::string& path() const { return path_; }

private:
    void finish();   // flush, fsync, close (throws)
    void publish();  // rename (throws)
    void abandon() noexcept;
    std::string path_;    // as given (for messages)
    std::string target_;  // the file replaced on commit (a symlink's target)
    std::string tmp_;     // empty: written in place (a character device)
    int fd_ = -1;
    int slot_ = -1;  // in the signal handler's table of temporaries
    bool done_ = false;
};

// PATH's whole contents, through OutputFile.
void writeFileAtomic(const std::string& path, const std::string& contents);

// Installs handlers of SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGFPE and
// SIGABRT that remove the temporaries of uncommitted OutputFiles (and move
// those marked keepOnSignal into place), then end the process by the same
// signal (a crash still dumps core).
void removeOutputsOnSignal();

}  // namespace strata
