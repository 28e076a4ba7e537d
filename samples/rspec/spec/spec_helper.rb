# frozen_string_literal: true

require 'fileutils'
require 'tmpdir'
require 'rspec/retry'

MARKER_DIR = ENV.fetch('SAMPLE_MARKER_DIR', File.join(Dir.tmpdir, 'testcycle-sample-rspec-markers'))

RSpec.configure do |config|
  # rspec-retry: only examples tagged with retry: N are retried
  config.verbose_retry = true
  config.display_try_failure_messages = true
  config.order = :defined
end
