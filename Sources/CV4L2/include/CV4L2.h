// V4L2 behind plain functions. Swift cannot call ioctl (it is variadic), cannot see the request
// numbers (function-like macros) and imports the unions in v4l2_format and v4l2_buffer badly, so
// each ioctl the camera needs is one function here that fills a flat struct. Every function
// returns 0 or the errno of the failed call (EINTR is retried).
#ifndef PLANTLEAF_CV4L2_H
#define PLANTLEAF_CV4L2_H

#include <stdint.h>

// Values of the videodev2.h constants the Swift side needs (checked against it in v4l2_shim.c).
#define PL_V4L2_CAP_VIDEO_CAPTURE 0x00000001u
#define PL_V4L2_CAP_VIDEO_CAPTURE_MPLANE 0x00001000u
#define PL_V4L2_CAP_STREAMING 0x04000000u
#define PL_V4L2_CAP_DEVICE_CAPS 0x80000000u
#define PL_V4L2_FMT_FLAG_COMPRESSED 0x0001u
#define PL_V4L2_FRMSIZE_TYPE_DISCRETE 1u
#define PL_V4L2_FRMSIZE_TYPE_CONTINUOUS 2u
#define PL_V4L2_FRMSIZE_TYPE_STEPWISE 3u
#define PL_V4L2_FRMIVAL_TYPE_DISCRETE 1u
#define PL_V4L2_BUF_FLAG_ERROR 0x00000040u

typedef struct {
    char driver[16];
    char card[32];
    char bus_info[32];
    uint32_t capabilities;  // of the whole device
    uint32_t device_caps;   // of this node (when capabilities has V4L2_CAP_DEVICE_CAPS)
} PLV4L2Capability;

typedef struct {
    uint32_t pixel_format;  // fourcc
    uint32_t flags;
    char description[32];
} PLV4L2FormatEntry;

typedef struct {
    uint32_t type;  // PL_V4L2_FRMSIZE_TYPE_*
    uint32_t width, height;  // discrete
    uint32_t min_width, max_width, step_width, min_height, max_height, step_height;  // stepwise/continuous
} PLV4L2FrameSize;

typedef struct {
    uint32_t type;  // PL_V4L2_FRMIVAL_TYPE_DISCRETE, else stepwise/continuous
    uint32_t numerator, denominator;  // discrete: seconds per frame
    uint32_t min_numerator, min_denominator, max_numerator, max_denominator;  // stepwise: shortest, longest
} PLV4L2FrameInterval;

typedef struct {
    uint32_t pixel_format;
    uint32_t width, height;
    uint32_t bytes_per_line;
    uint32_t size_image;
} PLV4L2PixelFormat;

typedef struct {
    uint32_t index;
    uint32_t bytes_used;
    uint32_t flags;
    uint32_t sequence;
    uint64_t timestamp_ns;     // driver timestamp
    int timestamp_monotonic;   // 1 when the timestamp is CLOCK_MONOTONIC (comparable with ours)
} PLV4L2Frame;

int pl_v4l2_query_capability(int fd, PLV4L2Capability *capability);
// ENUM_FMT for single-planar capture; EINVAL past the last index.
int pl_v4l2_enum_format(int fd, uint32_t index, PLV4L2FormatEntry *entry);
int pl_v4l2_enum_frame_size(int fd, uint32_t pixel_format, uint32_t index, PLV4L2FrameSize *size);
int pl_v4l2_enum_frame_interval(int fd, uint32_t pixel_format, uint32_t width, uint32_t height, uint32_t index,
                                PLV4L2FrameInterval *interval);
// S_FMT (progressive); on return *format holds what the driver chose.
int pl_v4l2_set_format(int fd, PLV4L2PixelFormat *format);
// S_PARM time per frame; on return the interval the driver chose. ENOTTY/EINVAL: no rate control.
int pl_v4l2_set_frame_interval(int fd, uint32_t *numerator, uint32_t *denominator);
// REQBUFS for mmap buffers; *count becomes what the driver granted. 0 frees them.
int pl_v4l2_request_buffers(int fd, uint32_t *count);
int pl_v4l2_query_buffer(int fd, uint32_t index, uint32_t *offset, uint32_t *length);
int pl_v4l2_queue_buffer(int fd, uint32_t index);
int pl_v4l2_dequeue_buffer(int fd, PLV4L2Frame *frame);
int pl_v4l2_stream(int fd, int on);

#endif
