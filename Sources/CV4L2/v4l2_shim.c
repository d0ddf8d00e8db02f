#include "CV4L2.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

_Static_assert(PL_V4L2_CAP_VIDEO_CAPTURE == (unsigned)V4L2_CAP_VIDEO_CAPTURE, "videodev2.h mismatch");
_Static_assert(PL_V4L2_CAP_VIDEO_CAPTURE_MPLANE == (unsigned)V4L2_CAP_VIDEO_CAPTURE_MPLANE, "videodev2.h mismatch");
_Static_assert(PL_V4L2_CAP_STREAMING == (unsigned)V4L2_CAP_STREAMING, "videodev2.h mismatch");
_Static_assert(PL_V4L2_CAP_DEVICE_CAPS == (unsigned)V4L2_CAP_DEVICE_CAPS, "videodev2.h mismatch");
_Static_assert(PL_V4L2_FMT_FLAG_COMPRESSED == (unsigned)V4L2_FMT_FLAG_COMPRESSED, "videodev2.h mismatch");
_Static_assert(PL_V4L2_FRMSIZE_TYPE_DISCRETE == (unsigned)V4L2_FRMSIZE_TYPE_DISCRETE, "videodev2.h mismatch");
_Static_assert(PL_V4L2_FRMSIZE_TYPE_CONTINUOUS == (unsigned)V4L2_FRMSIZE_TYPE_CONTINUOUS, "videodev2.h mismatch");
_Static_assert(PL_V4L2_FRMSIZE_TYPE_STEPWISE == (unsigned)V4L2_FRMSIZE_TYPE_STEPWISE, "videodev2.h mismatch");
_Static_assert(PL_V4L2_FRMIVAL_TYPE_DISCRETE == (unsigned)V4L2_FRMIVAL_TYPE_DISCRETE, "videodev2.h mismatch");
_Static_assert(PL_V4L2_BUF_FLAG_ERROR == (unsigned)V4L2_BUF_FLAG_ERROR, "videodev2.h mismatch");

// A signal landing during a blocking ioctl is not a failure of the device: ask again.
static int request(int fd, unsigned long number, void *argument) {
    int result;
    do {
        result = ioctl(fd, number, argument);
    } while (result == -1 && errno == EINTR);
    return result == -1 ? errno : 0;
}

static void copy_text(char *target, size_t size, const __u8 *source, size_t source_size) {
    size_t length = strnlen((const char *)source, source_size);
    if (length >= size) length = size - 1;
    memcpy(target, source, length);
    target[length] = '\0';
}

int pl_v4l2_query_capability(int fd, PLV4L2Capability *capability) {
    struct v4l2_capability query;
    memset(&query, 0, sizeof query);
    int status = request(fd, VIDIOC_QUERYCAP, &query);
    if (status != 0) return status;
    copy_text(capability->driver, sizeof capability->driver, query.driver, sizeof query.driver);
    copy_text(capability->card, sizeof capability->card, query.card, sizeof query.card);
    copy_text(capability->bus_info, sizeof capability->bus_info, query.bus_info, sizeof query.bus_info);
    capability->capabilities = query.capabilities;
    capability->device_caps = query.device_caps;
    return 0;
}

int pl_v4l2_enum_format(int fd, uint32_t index, PLV4L2FormatEntry *entry) {
    struct v4l2_fmtdesc query;
    memset(&query, 0, sizeof query);
    query.index = index;
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    int status = request(fd, VIDIOC_ENUM_FMT, &query);
    if (status != 0) return status;
    entry->pixel_format = query.pixelformat;
    entry->flags = query.flags;
    copy_text(entry->description, sizeof entry->description, query.description, sizeof query.description);
    return 0;
}

int pl_v4l2_enum_frame_size(int fd, uint32_t pixel_format, uint32_t index, PLV4L2FrameSize *size) {
    struct v4l2_frmsizeenum query;
    memset(&query, 0, sizeof query);
    query.index = index;
    query.pixel_format = pixel_format;
    int status = request(fd, VIDIOC_ENUM_FRAMESIZES, &query);
    if (status != 0) return status;
    memset(size, 0, sizeof *size);
    size->type = query.type;
    if (query.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        size->width = query.discrete.width;
        size->height = query.discrete.height;
    } else {
        size->min_width = query.stepwise.min_width;
        size->max_width = query.stepwise.max_width;
        size->step_width = query.stepwise.step_width;
        size->min_height = query.stepwise.min_height;
        size->max_height = query.stepwise.max_height;
        size->step_height = query.stepwise.step_height;
    }
    return 0;
}

int pl_v4l2_enum_frame_interval(int fd, uint32_t pixel_format, uint32_t width, uint32_t height, uint32_t index,
                                PLV4L2FrameInterval *interval) {
    struct v4l2_frmivalenum query;
    memset(&query, 0, sizeof query);
    query.index = index;
    query.pixel_format = pixel_format;
    query.width = width;
    query.height = height;
    int status = request(fd, VIDIOC_ENUM_FRAMEINTERVALS, &query);
    if (status != 0) return status;
    memset(interval, 0, sizeof *interval);
    interval->type = query.type;
    if (query.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
        interval->numerator = query.discrete.numerator;
        interval->denominator = query.discrete.denominator;
    } else {
        interval->min_numerator = query.stepwise.min.numerator;
        interval->min_denominator = query.stepwise.min.denominator;
        interval->max_numerator = query.stepwise.max.numerator;
        interval->max_denominator = query.stepwise.max.denominator;
    }
    return 0;
}

int pl_v4l2_set_format(int fd, PLV4L2PixelFormat *format) {
    struct v4l2_format query;
    memset(&query, 0, sizeof query);
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    query.fmt.pix.pixelformat = format->pixel_format;
    query.fmt.pix.width = format->width;
    query.fmt.pix.height = format->height;
    query.fmt.pix.field = V4L2_FIELD_NONE;
    int status = request(fd, VIDIOC_S_FMT, &query);
    if (status != 0) return status;
    format->pixel_format = query.fmt.pix.pixelformat;
    format->width = query.fmt.pix.width;
    format->height = query.fmt.pix.height;
    format->bytes_per_line = query.fmt.pix.bytesperline;
    format->size_image = query.fmt.pix.sizeimage;
    return 0;
}

int pl_v4l2_set_frame_interval(int fd, uint32_t *numerator, uint32_t *denominator) {
    struct v4l2_streamparm query;
    memset(&query, 0, sizeof query);
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    query.parm.capture.timeperframe.numerator = *numerator;
    query.parm.capture.timeperframe.denominator = *denominator;
    int status = request(fd, VIDIOC_S_PARM, &query);
    if (status != 0) return status;
    if (!(query.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) return ENOTTY;
    *numerator = query.parm.capture.timeperframe.numerator;
    *denominator = query.parm.capture.timeperframe.denominator;
    return 0;
}

int pl_v4l2_request_buffers(int fd, uint32_t *count) {
    struct v4l2_requestbuffers query;
    memset(&query, 0, sizeof query);
    query.count = *count;
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    query.memory = V4L2_MEMORY_MMAP;
    int status = request(fd, VIDIOC_REQBUFS, &query);
    if (status != 0) return status;
    *count = query.count;
    return 0;
}

int pl_v4l2_query_buffer(int fd, uint32_t index, uint32_t *offset, uint32_t *length) {
    struct v4l2_buffer query;
    memset(&query, 0, sizeof query);
    query.index = index;
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    query.memory = V4L2_MEMORY_MMAP;
    int status = request(fd, VIDIOC_QUERYBUF, &query);
    if (status != 0) return status;
    *offset = query.m.offset;
    *length = query.length;
    return 0;
}

int pl_v4l2_queue_buffer(int fd, uint32_t index) {
    struct v4l2_buffer query;
    memset(&query, 0, sizeof query);
    query.index = index;
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    query.memory = V4L2_MEMORY_MMAP;
    return request(fd, VIDIOC_QBUF, &query);
}

int pl_v4l2_dequeue_buffer(int fd, PLV4L2Frame *frame) {
    struct v4l2_buffer query;
    memset(&query, 0, sizeof query);
    query.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    query.memory = V4L2_MEMORY_MMAP;
    int status = request(fd, VIDIOC_DQBUF, &query);
    if (status != 0) return status;
    frame->index = query.index;
    frame->bytes_used = query.bytesused;
    frame->flags = query.flags;
    frame->sequence = query.sequence;
    frame->timestamp_ns = (uint64_t)query.timestamp.tv_sec * 1000000000u + (uint64_t)query.timestamp.tv_usec * 1000u;
    frame->timestamp_monotonic =
        (query.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
    return 0;
}

int pl_v4l2_stream(int fd, int on) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return request(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type);
}
