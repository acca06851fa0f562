#version 450 core
// Shows the tone-mapped path-traced image (RGBA8, already sRGB-encoded).
in vec2 uv;
out vec4 color;
layout(binding = 0) uniform sampler2D image;
void main() {
    color = vec4(texture(image, uv).rgb, 1.0);
}
