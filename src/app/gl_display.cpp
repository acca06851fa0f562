#include "app/gl_display.h"

#include <fstream>
#include <sstream>

#include "core/error.h"

namespace strata {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(path + ": cannot open shader file");
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// The info log of a shader or program (getIv / getLog: the matching GL pair).
template <class GetIv, class GetLog>
std::string infoLog(GLuint object, GetIv getIv, GetLog getLog) {
    GLint len = 0;
    getIv(object, GL_INFO_LOG_LENGTH, &len);
    std::string log(size_t(len > 1 ? len : 1), '\0');
    getLog(object, len, nullptr, log.data());
    return log;
}

GLuint compile(GLenum type, const std::string& path) {
    std::string src = readFile(path);
    const char* text = src.c_str();
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &text, nullptr);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::string log = infoLog(sh, glGetShaderiv, glGetShaderInfoLog);
        glDeleteShader(sh);
        throw Error(path + ": shader compilation failed:\n" + log);
    }
    return sh;
}

}  // namespace

GLuint loadProgram(const std::string& vertPath, const std::string& fragPath) {
    GLuint vs = compile(GL_VERTEX_SHADER, vertPath);
    GLuint fs;
    try {
        fs = compile(GL_FRAGMENT_SHADER, fragPath);
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        std::string log = infoLog(p, glGetProgramiv, glGetProgramInfoLog);
        glDeleteProgram(p);
        throw Error(vertPath + " + " + fragPath + ": program link failed:\n" + log);
    }
    return p;
}

GlDisplay::GlDisplay(const std::string& shaderDir) {
    program_ = loadProgram(shaderDir + "/display.vert", shaderDir + "/display.frag");
    glCreateVertexArrays(1, &vao_);
}

GlDisplay::~GlDisplay() {
    if (pbo_) glDeleteBuffers(1, &pbo_);
    if (texture_) glDeleteTextures(1, &texture_);
    if (vao_) glDeleteVertexArrays(1, &vao_);
    if (program_) glDeleteProgram(program_);
}

void GlDisplay::resize(int w, int h) {
    if (w == w_ && h == h_ && texture_) return;
    if (pbo_) glDeleteBuffers(1, &pbo_);
    if (texture_) glDeleteTextures(1, &texture_);
    w_ = w;
    h_ = h;
    glCreateTextures(GL_TEXTURE_2D, 1, &texture_);
    glTextureStorage2D(texture_, 1, GL_RGBA8, w, h);
    glTextureParameteri(texture_, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(texture_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(texture_, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(texture_, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glCreateBuffers(1, &pbo_);
    glNamedBufferData(pbo_, GLsizeiptr(w) * h * 4, nullptr, GL_STREAM_DRAW);
}

void GlDisplay::uploadFromPixelBuffer() {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
    glTextureSubImage2D(texture_, 0, 0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

void GlDisplay::uploadFromHost(const std::vector<uint8_t>& rgb) {
    rgba_.resize(size_t(w_) * h_ * 4);
    for (size_t i = 0; i < size_t(w_) * h_; ++i) {
        rgba_[4 * i] = rgb[3 * i];
        rgba_[4 * i + 1] = rgb[3 * i + 1];
        rgba_[4 * i + 2] = rgb[3 * i + 2];
        rgba_[4 * i + 3] = 255;
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(texture_, 0, 0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, rgba_.data());
}

void GlDisplay::draw(int viewportW, int viewportH) {
    glViewport(0, 0, viewportW, viewportH);  // the triangle covers it: no clear needed
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glUseProgram(program_);
    glBindTextureUnit(0, texture_);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glUseProgram(0);
}

}  // namespace strata
