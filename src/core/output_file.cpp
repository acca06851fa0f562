#include "core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "core/error.h"

namespace strata {
namespace {

// Temporaries the signal handler removes (or moves into place): fixed
// storage, no allocation in the handler; a slot is published (kRemove) only
// once its path is written.
constexpr int kSlots = 32;
constexpr size_t kPathBytes = PATH_MAX;
enum SlotState : int { kFree = 0, kRemove = 1, kFilling = 2, kKeep = 3 };
char gTemp[kSlots][kPathBytes];
char gTarget[kSlots][kPathBytes];  // kKeep: where the temporary goes
std::atomic<int> gUsed[kSlots];

int claimSlot(const std::string& tmp) {
    if (tmp.size() >= kPathBytes) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (gUsed[i].compare_exchange_strong(expected, kFilling)) {
            std::memcpy(gTemp[i], tmp.c_str(), tmp.size() + 1);
            gUsed[i].store(kRemove);
            return i;
        }
    }
    return -1;  // more than kSlots open at once: that one is not removed on a signal
}

void releaseSlot(int slot) {
    if (slot >= 0) gUsed[slot].store(kFree);
}

// unlink and rename are async-signal-safe.
extern "C" void removeTemporariesAndDie(int sig) {
    for (int i = 0; i < kSlots; ++i) {
        const int state = gUsed[i].load();
        if (state == kRemove) ::unlink(gTemp[i]);
        if (state == kKeep) ::rename(gTemp[i], gTarget[i]);
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

std::string reason(int err) { return std::strerror(err); }

const char* kindOf(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISBLK(m)) return "a block device";
    return "not a regular file";
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path), target_(path) {
    if (path.empty()) throw Error("output file: the path is empty");
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!S_ISCHR(st.st_mode))
            throw Error(path + ": cannot write: it is " + kindOf(st.st_mode) +
                        " (outputs go to regular files or character devices such as /dev/null)");
        fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);  // a device: written in place
        if (fd_ < 0) throw Error(path + ": cannot write: " + reason(errno));
        return;
    }
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {  // keep the link, replace its target
        char* real = ::realpath(path.c_str(), nullptr);
        if (real) {
            target_ = real;
            std::free(real);
        }
    }
    tmp_ = target_ + ".tmp-" + std::to_string(::getpid());
    slot_ = claimSlot(tmp_);
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
        const int err = errno;
        releaseSlot(slot_);
        slot_ = -1;
        throw Error(path + ": cannot write: " + reason(err));
    }
}

OutputFile::~OutputFile() {
    if (!done_) abandon();
}

void OutputFile::abandon() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    releaseSlot(slot_);
    slot_ = -1;
    done_ = true;
}

void OutputFile::write(const void* data, size_t bytes) {
    if (done_ || fd_ < 0) throw Error(path_ + ": write after the file was finished");
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd_, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            abandon();
            throw Error(path_ + ": cannot write: " + reason(err));
        }
        p += n;
        bytes -= size_t(n);
    }
}

void OutputFile::finish() {
    if (done_) throw Error(path_ + ": the file was already finished");
    if (!tmp_.empty() && ::fsync(fd_) != 0) {
        const int err = errno;
        abandon();
        throw Error(path_ + ": cannot write: " + reason(err));
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        const int err = errno;
        abandon();
        throw Error(path_ + ": cannot write: " + reason(err));
    }
}

void OutputFile::publish() {
    if (!tmp_.empty() && std::rename(tmp_.c_str(), target_.c_str()) != 0) {
        const int err = errno;
        abandon();
        throw Error(path_ + ": cannot move the written file into place: " + reason(err));
    }
    releaseSlot(slot_);
    slot_ = -1;
    done_ = true;
}

void OutputFile::keepOnSignal() {
    if (slot_ < 0 || target_.size() >= kPathBytes) return;
    gUsed[slot_].store(kFilling);  // the handler skips the slot while its target is written
    std::memcpy(gTarget[slot_], target_.c_str(), target_.size() + 1);
    gUsed[slot_].store(kKeep);
}

void OutputFile::commit() {
    finish();
    publish();
}

void OutputFile::commitAll(std::initializer_list<OutputFile*> files) {
    for (OutputFile* f : files)
        if (f) f->finish();
    for (OutputFile* f : files)
        if (f) f->publish();
}

void writeFileAtomic(const std::string& path, const std::string& contents) {
    OutputFile f(path);
    f.write(contents);
    f.commit();
}

void removeOutputsOnSignal() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGABRT}) std::signal(sig, removeTemporariesAndDie);
#if !defined(__SANITIZE_ADDRESS__)
    // Under AddressSanitizer its own handler reports the faulting access.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) std::signal(sig, removeTemporariesAndDie);
#endif
}

}  // namespace strata
