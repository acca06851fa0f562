// core/output_file.h: an output is complete or absent, a device is written
// in place and never replaced, a FIFO or directory is refused at once, and a
// full disk (a file-size limit here) is an error that leaves nothing behind;
// a signal keeps a log's rows and removes other temporaries.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/output_file.h"
#include "scene/image_io.h"

using namespace strata;

namespace {

struct TempDir {
    std::string path;
    TempDir() {
        char tmpl[] = "/tmp/strata-output-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
    std::string operator/(const std::string& name) const { return path + "/" + name; }
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        if (DIR* d = ::opendir(path.c_str())) {
            while (dirent* e = ::readdir(d))
                if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
            ::closedir(d);
        }
        return out;
    }
};

std::string contents(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

bool isCharDevice(const char* path) {
    struct stat st {};
    return ::stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace

TEST(OutputFile, CommitsTheWholeFileAndAbandonsCleanly) {
    TempDir d;
    writeFileAtomic(d / "a.txt", "first\n");
    EXPECT_EQ(contents(d / "a.txt"), "first\n");
    {
        OutputFile f(d / "a.txt");
        f.write("second, never committed\n");
    }  // abandoned: the old contents stay, no temporary is left
    EXPECT_EQ(contents(d / "a.txt"), "first\n");
    EXPECT_EQ(d.entries(), std::vector<std::string>{"a.txt"});
    EXPECT_THROW(OutputFile(d / "missing/a.txt"), Error);
    EXPECT_THROW(OutputFile(""), Error);
}

TEST(OutputFile, DevicesAreWrittenInPlaceNeverReplaced) {
    if (!isCharDevice("/dev/null") || !isCharDevice("/dev/full")) GTEST_SKIP() << "no /dev/null or /dev/full";
    writeFileAtomic("/dev/null", "nothing\n");
    EXPECT_TRUE(isCharDevice("/dev/null"));
    try {
        writeFileAtomic("/dev/full", "no room\n");
        ADD_FAILURE() << "writing to /dev/full succeeded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("No space"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(isCharDevice("/dev/full"));
}

TEST(OutputFile, DirectoriesAndFifosAreRefusedAtOnce) {
    TempDir d;
    ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
    try {
        OutputFile f(d / "fifo");  // would block until a reader opened it
        ADD_FAILURE() << "a FIFO was opened for writing";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("FIFO"), std::string::npos) << e.what();
    }
    try {
        OutputFile f(d.path);
        ADD_FAILURE() << "a directory was opened for writing";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("directory"), std::string::npos) << e.what();
    }
}

TEST(OutputFile, ASymlinkKeepsPointingAtItsNewContents) {
    TempDir d;
    writeFileAtomic(d / "target.csv", "old\n");
    ASSERT_EQ(::symlink((d / "target.csv").c_str(), (d / "link.csv").c_str()), 0);
    writeFileAtomic(d / "link.csv", "new\n");
    struct stat st {};
    ASSERT_EQ(::lstat((d / "link.csv").c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    EXPECT_EQ(contents(d / "target.csv"), "new\n");
}

// A full disk, as the file-size limit makes one: the PNG writer's error is
// reported and neither the image nor a temporary is left (before, the PNG
// was cut at the limit and renamed into place with exit 0).
TEST(OutputFile, AFullDiskLeavesNothing) {
    TempDir d;
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    auto* oldHandler = std::signal(SIGXFSZ, SIG_IGN);  // the write returns EFBIG instead
    rlimit small = old;
    small.rlim_cur = 64 * 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::vector<uint8_t> noise(400 * 400 * 3);
    uint32_t x = 1;
    for (uint8_t& v : noise) v = uint8_t((x = x * 1664525u + 1013904223u) >> 24);  // incompressible
    bool threw = false;
    std::string what;
    try {
        writePngAtomic(d / "out.png", 400, 400, noise);
    } catch (const Error& e) {
        threw = true;
        what = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    EXPECT_TRUE(threw) << "a PNG larger than the limit was written";
    EXPECT_NE(what.find("out.png"), std::string::npos) << what;
    EXPECT_TRUE(d.entries().empty()) << d.entries()[0];
}

// Several outputs of one run: either both are in place or neither.
TEST(OutputFile, CommitAllPublishesTogether) {
    TempDir d;
    OutputFile a(d / "a.png"), b(d / "b.csv");
    a.write("image");
    b.write("rows");
    OutputFile::commitAll({&a, &b, nullptr});
    EXPECT_EQ(contents(d / "a.png"), "image");
    EXPECT_EQ(contents(d / "b.csv"), "rows");
}

// A recording (keepOnSignal) survives the process dying of a signal with
// the rows written so far; an ordinary output's temporary is removed. The
// process that dies is a fork of the test.
TEST(OutputFile, ASignalKeepsALogAndRemovesOtherTemporaries) {
    for (int sig : {SIGTERM, SIGINT, SIGABRT}) {
        TempDir dir;
        const std::string log = dir / "rec.csv", image = dir / "shot.png";
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            removeOutputsOnSignal();
            OutputFile rec(log), shot(image);
            rec.keepOnSignal();
            rec.write("frame,ms\n");
            rec.write("0,1.5\n");
            shot.write("half an image");
            std::raise(sig);
            std::_Exit(0);  // not reached
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "signal " << sig;
        EXPECT_EQ(contents(log), "frame,ms\n0,1.5\n") << "signal " << sig;
        EXPECT_EQ(dir.entries(), std::vector<std::string>{"rec.csv"}) << "signal " << sig;
    }
}
