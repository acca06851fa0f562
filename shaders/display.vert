#version 450 core
// Fullscreen triangle: three vertices cover the viewport, no vertex buffer.
out vec2 uv;
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    // The image's row 0 is its top row: flip v.
    uv = vec2(p.x, 1.0 - p.y);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
