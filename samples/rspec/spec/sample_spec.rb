# frozen_string_literal: true

RSpec.describe 'Sample' do
  it 'passes' do
    expect(1 + 1).to eq 2
  end

  it 'fails an assertion' do
    expect(2 + 2).to eq 5
  end

  it 'raises an error' do
    raise ArgumentError, 'unexpected value'
  end

  it 'writes to stdout' do
    puts 'hello from stdout'
    expect(true).to be true
  end

  it 'is pending (the body fails as expected)' do
    pending('known bug #42')
    expect(1).to eq 2
  end

  xit 'is skipped with xit' do
    expect(true).to be false
  end

  it 'is skipped with skip:', skip: 'not implemented yet' do
    expect(true).to be false
  end

  it 'is a todo without a body'

  [1, 2, 3].each do |n|
    it "is small (n=#{n})" do
      expect(n).to be < 3
    end
  end

  it 'is flaky and passes on retry', retry: 2 do
    FileUtils.mkdir_p(MARKER_DIR)
    marker = File.join(MARKER_DIR, 'flaky.marker')
    unless File.exist?(marker)
      FileUtils.touch(marker)
      raise 'first attempt fails'
    end
    expect(File.exist?(marker)).to be true
  end

  it %q(quotes " and ' and <>& and 🎉 é ü 日本) do
    expect('日本').to start_with('日')
  end

  describe 'outer' do
    context 'inner' do
      it 'passes nested' do
        expect([1, 2]).to eq [1, 2]
      end

      it 'fails nested' do
        expect({ a: 1 }).to eq({ a: 2 })
      end
    end

    context 'with a failing before hook' do
      before { raise 'setup failed' }

      it 'never runs its body' do
        expect(true).to be true
      end
    end
  end
end
