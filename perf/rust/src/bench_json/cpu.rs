//! CPU clocks: the calling thread's and the whole process's (every thread, librdkafka's included).
//!
//! Both are POSIX clocks read with `clock_gettime`: `CLOCK_THREAD_CPUTIME_ID` counts the user and system time
//! of the calling thread only, `CLOCK_PROCESS_CPUTIME_ID` the time of all threads of the process, those that
//! have exited included. Neither counts time spent waiting (a blocked `commit_transaction`, a sleep), and
//! neither sees other processes: the broker's CPU is not in them.

use std::time::Duration;

use crate::Error;

/// Which clock.
#[derive(Debug, Clone, Copy)]
enum Clock {
    Thread,
    Process,
}

fn read(clock: Clock) -> Result<Duration, Error> {
    let id = match clock {
        Clock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
        Clock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
    };
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable `timespec` that outlives the call, and `id` is one of the two CPU
    // clocks POSIX defines; clock_gettime writes only into `now`.
    let status = unsafe { libc::clock_gettime(id, &raw mut now) };
    if status != 0 {
        return Err(Error::Clock(std::io::Error::last_os_error()));
    }
    // A CPU clock never reads below zero.
    let seconds = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u32::try_from(now.tv_nsec).unwrap_or(0);
    Ok(Duration::new(seconds, nanos))
}

/// CPU time the calling thread has used so far.
///
/// # Errors
/// [`Error::Clock`] if the system refuses `CLOCK_THREAD_CPUTIME_ID` (never on Linux).
pub fn thread_cpu() -> Result<Duration, Error> {
    read(Clock::Thread)
}

/// CPU time every thread of this process has used so far.
///
/// # Errors
/// [`Error::Clock`] if the system refuses `CLOCK_PROCESS_CPUTIME_ID` (never on Linux).
pub fn process_cpu() -> Result<Duration, Error> {
    read(Clock::Process)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_loop_shows_in_both_clocks_and_the_thread_is_part_of_the_process() {
        // The process interval encloses the thread's: its clock is read first at the start and last at the end
        // (read the other way round, the process could show a few microseconds less, as seen once under load).
        let process0 = process_cpu().unwrap();
        let thread0 = thread_cpu().unwrap();
        // Spin until the thread clock has counted 20 ms (however loaded the machine, it gets there), within a
        // generous wall-clock bound.
        let mut x = 0_u64;
        let give_up = std::time::Instant::now() + Duration::from_secs(10);
        let mut thread = Duration::ZERO;
        while thread < Duration::from_millis(20) && std::time::Instant::now() < give_up {
            for _ in 0..10_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            thread = thread_cpu().unwrap() - thread0;
        }
        let process = process_cpu().unwrap() - process0;
        assert!(
            thread >= Duration::from_millis(20),
            "thread {thread:?} after 10 s of spinning"
        );
        assert!(process >= thread, "process {process:?} < thread {thread:?}");
    }

    #[test]
    fn sleeping_costs_no_cpu() {
        let before = thread_cpu().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let used = thread_cpu().unwrap() - before;
        assert!(used < Duration::from_millis(20), "{used:?}");
    }
}
