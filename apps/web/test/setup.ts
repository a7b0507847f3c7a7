import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// A lazily loaded screen is transformed on its first import in a test file; on a loaded 2-core
// runner that alone can take more than testing-library's default 1 s of waiting.
configure({ asyncUtilTimeout: 5000 })

afterEach(() => {
  cleanup()
  localStorage.clear()
  document.documentElement.className = ''
})
