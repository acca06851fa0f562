// app/gl_display.h — the GL side of the display: an RGBA8 texture the size of
// the rendered image, a pixel-unpack buffer for the PBO interop path, and the
// fullscreen-triangle program (shaders/display.{vert,frag}, loaded at run time).
#pragma once

#include <glad/gl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// Compiles and links a program from two files; throws strata::Error naming the
// file and the compile or link log.
GLuint loadProgram(const std::string& vertPath, const std::string& fragPath);

class GlDisplay {
public:
    explicit GlDisplay(const std::string& shaderDir);
    ~GlDisplay();
    GlDisplay(const GlDisplay&) = delete;
    GlDisplay& operator=(const GlDisplay&) = delete;

    // (Re)creates the texture and pixel buffer for a w x h image.
    void resize(int w, int h);
    void uploadFromPixelBuffer();                          // PBO path: texture <- pbo
    void uploadFromHost(const std::vector<uint8_t>& rgb);  // copy path (RGB, top row first)
    void draw(int viewportW, int viewportH);

    GLuint texture() const { return texture_; }
    GLuint pixelBuffer() const { return pbo_; }
    int width() const { return w_; }
    int height() const { return h_; }

private:
    GLuint program_ = 0, vao_ = 0, texture_ = 0, pbo_ = 0;
    int w_ = 0, h_ = 0;
    std::vector<uint8_t> rgba_;
};

// GPU time of a span of GL commands (GL_TIME_ELAPSED), read a frame or more
// later so the CPU does not wait; two queries alternate.
class GlTimer {
public:
    GlTimer() { glGenQueries(2, q_); }
    ~GlTimer() { glDeleteQueries(2, q_); }
    void begin() {
        if (!active_[i_]) glBeginQuery(GL_TIME_ELAPSED, q_[i_]);
    }
    void end() {
        if (!active_[i_]) {
            glEndQuery(GL_TIME_ELAPSED);
            active_[i_] = true;
        }
        i_ ^= 1;
    }
    double lastMs() {
        for (int k = 0; k < 2; ++k) {
            if (!active_[k]) continue;
            GLint ready = 0;
            glGetQueryObjectiv(q_[k], GL_QUERY_RESULT_AVAILABLE, &ready);
            if (!ready) continue;
            GLuint64 ns = 0;
            glGetQueryObjectui64v(q_[k], GL_QUERY_RESULT, &ns);
            ms_ = double(ns) * 1e-6;
            active_[k] = false;
        }
        return ms_;
    }

private:
    GLuint q_[2] = {0, 0};
    bool active_[2] = {false, false};
    int i_ = 0;
    double ms_ = 0;
};

}  // namespace strata
